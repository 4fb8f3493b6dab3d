import { describe, expect, it } from 'vitest';
import { bodyText, mayBeText, mediaTypeOf } from './body-text';

/** A body as guardedFetch reads it: whole, or `capped` (cut after these bytes). */
function body(bytes: string | Uint8Array, capped = false) {
  return { bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes, capped };
}

/** The UTF-8 bytes of `text` without the last one: a body cut inside its last character. */
function cut(text: string): Uint8Array {
  return Buffer.from(text).subarray(0, -1);
}

describe('mediaTypeOf and mayBeText', () => {
  it('reads the media type without its parameters, in lower case', () => {
    expect(mediaTypeOf('Text/HTML; charset=UTF-8')).toBe('text/html');
    expect(mediaTypeOf(' application/json ')).toBe('application/json');
    expect(mediaTypeOf('; charset=utf-8')).toBe('');
    expect(mediaTypeOf('')).toBe('');
  });

  it('reads HTML, text, JSON, XML, scripts and bodies without a type', () => {
    for (const mediaType of [
      '',
      'text/html',
      'application/xhtml+xml',
      'text/plain',
      'text/csv',
      'application/json',
      'application/xml',
      'application/javascript',
      'application/ecmascript',
      'application/x-ndjson',
      'application/ld+json',
      'application/atom+xml',
      'application/vnd.api+json',
    ]) {
      expect(mayBeText(mediaType), mediaType).toBe(true);
    }
  });

  it('leaves other types unread', () => {
    for (const mediaType of [
      'image/png',
      'application/octet-stream',
      'application/pdf',
      'application/zip',
      'video/mp4',
      'application/jsonx',
    ]) {
      expect(mayBeText(mediaType), mediaType).toBe(false);
    }
  });
});

describe('bodyText', () => {
  it('decodes the charset the Content-Type declares, UTF-8 for none or an unknown one', () => {
    expect(bodyText(body(Buffer.from('café', 'latin1')), 'text/plain; charset=iso-8859-1')).toEqual(
      { kind: 'text', text: 'café' },
    );
    expect(bodyText(body('café'), 'text/plain')).toEqual({ kind: 'text', text: 'café' });
    expect(bodyText(body('café'), 'text/plain; charset="no-such-charset"')).toEqual({
      kind: 'text',
      text: 'café',
    });
    expect(bodyText(body('{"a": 1}'), 'application/json')).toEqual({
      kind: 'text',
      text: '{"a": 1}',
    });
  });

  it('decodes an HTML page by its <meta> charset, unless the Content-Type names one', () => {
    const page = '<html><head><meta charset="iso-8859-1"></head><p>café</p></html>';
    expect(bodyText(body(Buffer.from(page, 'latin1')), 'text/html')).toEqual({
      kind: 'html',
      text: page,
    });
    expect(bodyText(body(page), 'application/xhtml+xml; charset=utf-8')).toEqual({
      kind: 'html',
      text: page,
    });
  });

  it('reads a body without a type as text if it is UTF-8, as HTML if it starts like a page', () => {
    expect(bodyText(body('just text, ünïcode'), '')).toEqual({
      kind: 'text',
      text: 'just text, ünïcode',
    });
    for (const page of ['<!DOCTYPE html><p>Hi</p>', '\n  <html><p>Hi</p></html>']) {
      expect(bodyText(body(page), ''), page).toEqual({ kind: 'html', text: page });
    }
  });

  it('calls a body without a type binary if it is not UTF-8 or holds a NUL', () => {
    expect(bodyText(body(new Uint8Array([0x63, 0x61, 0x66, 0xe9])), '')).toBeUndefined();
    expect(bodyText(body('before\u0000after'), '')).toBeUndefined();
  });

  it('keeps a NUL in a text body, unless the bytes are not UTF-8 at all', () => {
    expect(bodyText(body('before\u0000after'), 'text/plain')).toEqual({
      kind: 'text',
      text: 'before\u0000after',
    });
    expect(bodyText(body(new Uint8Array([0, 159, 146, 150, 0])), 'text/plain')).toBeUndefined();
    // In a single-byte charset every byte is a character.
    expect(bodyText(body(new Uint8Array([0, 0xe9])), 'text/plain; charset=iso-8859-1')).toEqual({
      kind: 'text',
      text: '\u0000é',
    });
  });

  it('judges a body cut inside a character by the bytes it has', () => {
    expect(bodyText(body(cut('\u0000aa€'), true), 'text/plain')).toEqual({
      kind: 'text',
      text: '\u0000aa\uFFFD',
    });
    expect(bodyText(body(cut('aa€'), true), '')).toEqual({ kind: 'text', text: 'aa\uFFFD' });
    // The same bytes, whole: they end with a broken character, so they are not UTF-8.
    expect(bodyText(body(cut('\u0000aa€')), 'text/plain')).toBeUndefined();
    expect(bodyText(body(cut('aa€')), '')).toBeUndefined();
  });
});
