import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * `response`'s body as its `Content-Encoding` says (gzip, deflate, br, or none), or undefined
 * for an encoding this server cannot read. The decoder is piped with `pipeline`, which, unlike
 * `pipe`, passes the response's error (an abort, a reset) on to it.
 */
export function decodedBody(response: IncomingMessage): Readable | undefined {
  const decoder = decoderFor(response.headers['content-encoding']);
  if (decoder === null) return response;
  return decoder && pipeline(response, decoder, () => {});
}

function decoderFor(encoding: string | undefined) {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}
