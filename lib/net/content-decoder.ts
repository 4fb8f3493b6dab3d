import type { Transform } from 'node:stream';
import zlib from 'node:zlib';

/**
 * A decoder for a body in `encoding` (a `Content-Encoding` value), `null` for one that needs
 * none, or undefined for an encoding this server cannot read.
 */
export function contentDecoder(encoding: string | undefined): Transform | null | undefined {
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
