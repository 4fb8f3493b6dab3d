import dns from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { type AddressPolicy, allowedByDefault, refusalReason } from './address-policy';
import { decodedBody } from './decoded-body';

export const MAX_REDIRECTS = 5;

/** A failure whose message is meant to be shown as it is, to a model or a person. */
export class FetchError extends Error {
  override name = 'FetchError';
}

export type GuardedFetchOptions = {
  /** Whether a connection to an IP address may be made. Default: `allowedByDefault`. */
  allowAddress?: AddressPolicy;
  /** The caller's own signal: aborting it stops the fetch and hangs up. */
  signal: AbortSignal;
  /** The whole fetch (every redirect and the body) must finish within this. */
  timeoutMs: number;
  /** At most this much of a body is read (after decompression); the rest is left unread. */
  maxBytes: number;
  /** Sent with every request, e.g. accept and user-agent. */
  headers?: Readonly<Record<string, string>>;
};

export type FetchedBody = { bytes: Uint8Array; capped: boolean };

/** A response whose status and headers are in; its body is read only if asked for. */
export type GuardedResponse = {
  /** The URL that answered, after any redirects. */
  url: URL;
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** The body, decompressed; `capped` when it was cut at `maxBytes`. */
  body(): Promise<FetchedBody>;
  /** Hangs up. Call it when done, whether the body was read or not. */
  close(): void;
};

/** How every request connects: only to allowed addresses, until `signal` aborts. */
type Connection = {
  allow: AddressPolicy;
  signal: AbortSignal;
  headers: Readonly<Record<string, string>>;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs an http(s) URL, following up to MAX_REDIRECTS redirects, and connects only to addresses
 * the policy allows: every hop's IP literal is checked before connecting and every DNS answer as
 * the socket connects. Every failure rejects with a FetchError that names `url`: a refusal, a
 * timeout, an abort, or what the network said.
 */
export async function guardedFetch(
  url: string,
  options: GuardedFetchOptions,
): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const failure = (error: unknown): FetchError => {
    if (deadline.aborted) {
      return new FetchError(`timed out after ${options.timeoutMs / 1000} s fetching ${url}`);
    }
    if (options.signal.aborted) return new FetchError(`fetching ${url} was aborted`);
    if (error instanceof FetchError) return error;
    return new FetchError(`cannot fetch ${url}: ${(error as Error).message}`);
  };
  const connection: Connection = {
    allow: options.allowAddress ?? allowedByDefault,
    signal: AbortSignal.any([options.signal, deadline]),
    headers: { ...options.headers, 'accept-encoding': 'gzip, deflate, br' },
  };
  try {
    const { answered, response } = await follow(parseUrl(url), connection);
    return {
      url: answered,
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      headers: response.headers,
      body: () =>
        readBody(response, options.maxBytes).catch((error: unknown) => {
          throw failure(error);
        }),
      close: () => response.destroy(),
    };
  } catch (error) {
    throw failure(error);
  }
}

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

/**
 * Follows redirects by hand, checking every hop: the scheme and an IP-literal host here, a
 * hostname's addresses in `guardedLookup` as the socket connects.
 */
async function follow(
  start: URL,
  connection: Connection,
): Promise<{ answered: URL; response: IncomingMessage }> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const response = await request(url, connection);
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || location === undefined) {
      return { answered: url, response };
    }
    response.destroy();
    if (redirects === MAX_REDIRECTS) {
      throw new FetchError(`too many redirects: gave up after ${MAX_REDIRECTS}, at ${url}`);
    }
    url = parseUrl(location, url);
  }
}

function request(url: URL, { allow, signal, headers }: Connection): Promise<IncomingMessage> {
  // Node connects to an IP literal without any lookup, so the literal is checked here.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !allow(host)) {
    return Promise.reject(new FetchError(refusalReason(host, host)));
  }
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      // A fresh connection each time: a pooled socket must not outlive the check that opened it.
      { agent: false, lookup: guardedLookup(allow), signal, headers },
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
function guardedLookup(allow: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = addresses.find(({ address }) => !allow(address));
      if (refused) return callback(new FetchError(refusalReason(hostname, refused.address)), '');
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(new FetchError(`${hostname} has no address`), '');
      callback(null, first.address, first.family);
    });
  };
}

/** Aborting the request's signal destroys its socket, which ends this read with an error. */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<FetchedBody> {
  const stream = decompressed(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let capped = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
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
  const body = decodedBody(response);
  if (!body) {
    const encoding = response.headers['content-encoding']?.trim().toLowerCase();
    throw new FetchError(`cannot read a body in the ${encoding} encoding`);
  }
  return body;
}
