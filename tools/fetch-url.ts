import dns from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
// node-html-parser: pure JavaScript (no native code, no network at run time), maintained, fast,
// and its `structuredText` already turns block elements into lines. A full DOM (linkedom) plus
// Readability would guess the main content better, at twice the dependencies; choosing <main>,
// a lone <article> or <body> and dropping scripts, styles and navigation is enough for a model.
import ipaddr from 'ipaddr.js';
import { type HTMLElement, parse } from 'node-html-parser';
import { defineTool, err, note, ok } from '@/lib/tools';

/** At most this much of a body is read (after decompression); the rest is left unread. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
export const FETCH_TIMEOUT_MS = 15_000;

const ALLOW_PRIVATE = 'QUANTA_FETCH_ALLOW_PRIVATE';

// IPv6 global unicast (RFC 4291): ipaddr.js calls everything outside its special ranges
// 'unicast', including space the IETF reserves, like the deprecated IPv4-compatible ::/96.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The ranges QUANTA_FETCH_ALLOW_PRIVATE=1 opens: this machine and its private networks. */
const PRIVATE_RANGES: ReadonlySet<string> = new Set([
  'loopback',
  'private',
  'uniqueLocal',
  'carrierGradeNat',
]);

/**
 * The ipaddr.js range of `address` (an IP address without brackets): 'unicast' for a public
 * address, else the special-purpose range it is in ('loopback', 'private', 'linkLocal',
 * 'reserved', 'teredo', ...). IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged by their
 * IPv4 address, as that is where a connection to them goes. Anything that is not an IP address
 * is 'invalid'.
 */
export function addressRange(address: string): string {
  // isIP is strict (no octal, hex or short IPv4 forms); ipaddr.js would read those too.
  if (isIP(address) === 0) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().range();
  const range = ipv6.range();
  return range === 'unicast' && !ipv6.match(GLOBAL_UNICAST_V6) ? 'reserved' : range;
}

/**
 * The default policy, read at each call so that the variable can change while the server runs:
 * public addresses, and with QUANTA_FETCH_ALLOW_PRIVATE=1 loopback and private ones too.
 */
export function allowedByDefault(address: string): boolean {
  const range = addressRange(address);
  return range === 'unicast' || (process.env[ALLOW_PRIVATE] === '1' && PRIVATE_RANGES.has(range));
}

export type FetchUrlOptions = {
  /** Whether a connection to this IP address may be made. Default: `allowedByDefault`. */
  allowAddress?: (address: string) => boolean;
  /** The whole fetch (every redirect and the body) must finish within this. */
  timeoutMs?: number;
};

/** A failure whose message is meant for the model as it is. */
class FetchError extends Error {
  override name = 'FetchError';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createFetchUrl(options: FetchUrlOptions = {}) {
  const allow = options.allowAddress ?? allowedByDefault;
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  return defineTool({
    name: 'fetch_url',
    description:
      'Reads a web page or file over HTTP(S) and returns its text: the title and main text of ' +
      'an HTML page (scripts, styles and navigation dropped), plain text and JSON as they are. ' +
      'Use it to read a URL the user gives you or one you need to look at. Only public ' +
      `addresses; at most ${MAX_BODY_BYTES / 1024 / 1024} MB of a body is read.`,
    parameters: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          format: 'uri',
          maxLength: 2048,
          description: 'An http:// or https:// URL, e.g. https://example.com/page',
        },
      },
      required: ['url'],
      additionalProperties: false,
    },
    // runTool's own limit, a little later than ours so that our message is the one seen.
    timeoutMs: timeoutMs + 5_000,
    async execute(_agentId, _toolCallId, { url }, ctx) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([ctx.signal, deadline]);
      let response: IncomingMessage | undefined;
      try {
        const fetched = await follow(parseUrl(url), allow, signal);
        response = fetched.response;
        return await readResponse(fetched.url, response);
      } catch (error) {
        if (deadline.aborted) return err(`timed out after ${timeoutMs / 1000} s fetching ${url}`);
        if (ctx.signal.aborted) return err(`fetching ${url} was aborted`);
        if (error instanceof FetchError) return err(error.message);
        return err(`cannot fetch ${url}: ${(error as Error).message}`);
      } finally {
        response?.destroy();
      }
    },
  });
}

export const fetchUrl = createFetchUrl();

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new FetchError(`not a valid URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError(`only http:// and https:// URLs can be fetched, not ${url.protocol}`);
  }
  return url;
}

function refusal(host: string, address: string): FetchError {
  const what = host === address ? address : `${host} resolves to ${address}, which`;
  const range = addressRange(address);
  const unless = PRIVATE_RANGES.has(range)
    ? ` (the server allows loopback and private addresses only with ${ALLOW_PRIVATE}=1)`
    : '';
  return new FetchError(`refused: ${what} is not a public address (${range})${unless}`);
}

/**
 * Follows redirects by hand, checking every hop: the scheme and an IP-literal host here, a
 * hostname's addresses in `guardedLookup` as the socket connects.
 */
async function follow(
  start: URL,
  allow: (address: string) => boolean,
  signal: AbortSignal,
): Promise<{ url: URL; response: IncomingMessage }> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const response = await request(url, allow, signal);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
      return { url, response };
    }
    response.destroy();
    if (redirects === MAX_REDIRECTS) {
      throw new FetchError(`too many redirects: gave up after ${MAX_REDIRECTS}, at ${url}`);
    }
    url = parseUrl(location, url);
  }
}

function request(
  url: URL,
  allow: (address: string) => boolean,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  // Node connects to an IP literal without any lookup, so the literal is checked here.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !allow(host)) return Promise.reject(refusal(host, host));
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        // A fresh connection each time: a pooled socket must not outlive the check that opened it.
        agent: false,
        lookup: guardedLookup(allow),
        signal,
        headers: {
          accept:
            'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.1',
          'accept-encoding': 'gzip, deflate, br',
          'user-agent': 'Quanta fetch_url',
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Resolves as `dns.lookup` does, but fails when any address is refused. It runs as the socket
 * connects and the socket uses exactly the addresses checked, so a name that resolves to a
 * public address for a check and to 127.0.0.1 for the connection (DNS rebinding) gains nothing.
 */
function guardedLookup(allow: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = addresses.find(({ address }) => !allow(address));
      if (refused) return callback(refusal(hostname, refused.address), '');
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new FetchError(`${hostname} has no address`), '');
      callback(null, first.address, first.family);
    });
  };
}

type Kind = 'html' | 'text' | 'unknown' | 'other';

function kindOf(mediaType: string): Kind {
  if (mediaType === '') return 'unknown';
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (
    mediaType.startsWith('text/') ||
    /^application\/(?:json|xml|javascript|ecmascript|x-ndjson|[\w.+-]+\+(?:json|xml))$/.test(
      mediaType,
    )
  ) {
    return 'text';
  }
  return 'other';
}

async function readResponse(url: URL, response: IncomingMessage) {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    const reason = response.statusMessage ? ` ${response.statusMessage}` : '';
    throw new FetchError(`HTTP ${status}${reason} from ${url}`);
  }
  const contentType = response.headers['content-type'] ?? '';
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  let kind = kindOf(mediaType);
  if (kind === 'other') {
    const length = Number(response.headers['content-length']);
    const size = Number.isFinite(length) && length >= 0 ? `, ${kilobytes(length)} KB` : '';
    throw new FetchError(`${url} is ${mediaType}${size}, not text: its content was not read`);
  }

  const { bytes, capped } = await readBody(response);
  let charset = /charset\s*=\s*"?([\w.-]+)/i.exec(contentType)?.[1];
  if (kind === 'unknown') {
    // No Content-Type: text only if the bytes are UTF-8 without NUL, HTML if they look like it.
    const text = strictUtf8(bytes, capped);
    if (text === undefined || text.includes('\u0000')) {
      throw new FetchError(`${url} sent ${kilobytes(bytes.length)} KB of binary data, not text`);
    }
    kind = /^\s*(?:<!doctype html|<html)/i.test(text) ? 'html' : 'text';
    charset = 'utf-8';
  }
  if (kind === 'html') charset ??= metaCharset(bytes);
  const decoder = decoderFor(charset);
  const text = decoder.decode(bytes);
  // A stray NUL in UTF-8 text is kept (as U+FFFD below); NULs in bytes that are not UTF-8 at all
  // are binary data under a text label.
  if (
    text.includes('\u0000') &&
    decoder.encoding === 'utf-8' &&
    strictUtf8(bytes, capped) === undefined
  ) {
    throw new FetchError(
      `${url} is ${mediaType} but sent ${kilobytes(bytes.length)} KB of binary data, not text`,
    );
  }

  const header = [`URL: ${url}`];
  let body = text;
  if (kind === 'html') {
    const page = htmlToText(text);
    if (page.title) header.push(`Title: ${page.title}`);
    body = page.text || '(no readable text: the page may need JavaScript to show its content)';
  }
  const limit = `${MAX_BODY_BYTES / 1024 / 1024} MB`;
  if (capped) header.push(`[Only the first ${limit} were read; the rest is missing.]`);
  const fetched = `Fetched ${kilobytes(bytes.length)} KB from ${url.host}`;
  return ok(
    wellFormed(`${header.join('\n')}\n\n${body}`),
    note(capped ? `${fetched} (cut at ${limit})` : fetched),
  );
}

/** Aborting the request's signal destroys its socket, which ends this read with an error. */
async function readBody(
  response: IncomingMessage,
): Promise<{ bytes: Uint8Array; capped: boolean }> {
  const stream = decompressed(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let capped = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = MAX_BODY_BYTES - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        capped = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    stream.destroy();
  }
  return { bytes: Buffer.concat(chunks, size), capped };
}

function decompressed(response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return response;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) throw new FetchError(`cannot read a body in the ${encoding} encoding`);
  // pipeline, unlike pipe, passes an error of the response on to the decoder.
  return pipeline(response, decoder, () => {});
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point.
const NOT_TEXT = /[\u0000\p{Cs}]/gu;

/**
 * `text` with each NUL and lone surrogate replaced by U+FFFD: the agent turns a result holding
 * either into "[binary output]", and the page is text with a few bad characters.
 */
function wellFormed(text: string): string {
  return text.replace(NOT_TEXT, '\uFFFD');
}

// Never content: code, styling, navigation, forms and what the page itself hides.
const DROPPED =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, nav, aside, form, ' +
  'button, select, dialog, [hidden], [aria-hidden="true"]';

/** The title and the readable main text of an HTML page, one line per block, spaces collapsed. */
export function htmlToText(html: string): { title: string; text: string } {
  const root = parse(html, { comment: false });
  const title = collapse(root.querySelector('title')?.text ?? '');
  for (const element of root.querySelectorAll(DROPPED)) element.remove();
  const articles = root.querySelectorAll('article');
  let main: HTMLElement | null = root.querySelector('main');
  if (!main && articles.length === 1) main = articles[0] ?? null;
  if (!main) {
    // The whole body: its site-wide header and footer are not the page's text.
    main = root.querySelector('body') ?? root;
    for (const element of main.querySelectorAll('header, footer')) element.remove();
  }
  const text = main.structuredText
    .split('\n')
    .map(collapse)
    .filter((line) => line !== '')
    .join('\n');
  return { title, text };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** "0.1" for 27 bytes (never "0.0" for a body that has any), "2048" for 2 MB. */
function kilobytes(bytes: number): string {
  const kb = bytes / 1024;
  return kb < 10 ? (Math.ceil(kb * 10) / 10).toFixed(1) : String(Math.round(kb));
}
