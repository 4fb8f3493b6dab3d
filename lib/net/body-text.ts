import type { FetchedBody } from './guarded-fetch';

/** The media type of a Content-Type header, lower case and without parameters; '' for none. */
export function mediaTypeOf(contentType: string): string {
  return contentType.replace(/;.*/s, '').trim().toLowerCase();
}

function isHtml(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

/**
 * Whether a body of this media type can be text and is worth reading: HTML, any text type,
 * JSON, XML and scripts; also no type at all, when the bytes themselves decide.
 */
export function mayBeText(mediaType: string): boolean {
  return (
    mediaType === '' ||
    isHtml(mediaType) ||
    mediaType.startsWith('text/') ||
    /^application\/(?:json|xml|javascript|ecmascript|x-ndjson|[\w.+-]+\+(?:json|xml))$/.test(
      mediaType,
    )
  );
}

export type BodyText = { kind: 'html' | 'text'; text: string };

/**
 * A body as text, decoded by the charset its Content-Type (or an HTML page's <meta>) declares,
 * UTF-8 otherwise; undefined when the bytes are binary data, whatever the label says. A body
 * without a type is text only if it is UTF-8 without NUL, and HTML if it starts like a page.
 */
export function bodyText(
  { bytes, capped }: FetchedBody,
  contentType: string,
): BodyText | undefined {
  const mediaType = mediaTypeOf(contentType);
  let kind: BodyText['kind'] = isHtml(mediaType) ? 'html' : 'text';
  let charset = /charset\s*=\s*"?([\w.-]+)/i.exec(contentType)?.[1];
  if (mediaType === '') {
    const text = strictUtf8(bytes, capped);
    if (text === undefined || text.includes('\u0000')) return undefined;
    if (/^\s*(?:<!doctype html|<html)/i.test(text)) kind = 'html';
    charset = 'utf-8';
  }
  if (kind === 'html') charset ??= metaCharset(bytes);
  const decoder = decoderFor(charset);
  const text = decoder.decode(bytes);
  // A stray NUL in UTF-8 text is kept; NULs in bytes that are not UTF-8 at all are binary data
  // under a text label.
  if (
    text.includes('\u0000') &&
    decoder.encoding === 'utf-8' &&
    strictUtf8(bytes, capped) === undefined
  ) {
    return undefined;
  }
  return { kind, text };
}

/** `bytes` as UTF-8, or undefined if they are not; `partial` bytes may end inside a character. */
function strictUtf8(bytes: Uint8Array, partial: boolean): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
  } catch {
    return undefined;
  }
}

/** The charset an HTML page declares in a <meta> tag near its start. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const start = Buffer.from(bytes.subarray(0, 2048)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.-]+)/i.exec(start)?.[1];
}

function decoderFor(charset = 'utf-8'): TextDecoder {
  try {
    return new TextDecoder(charset);
  } catch {
    return new TextDecoder('utf-8'); // an unknown label
  }
}
