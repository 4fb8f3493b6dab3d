/**
 * A large request body's bytes, written into a buffer kept from one request to the next. A model
 * request carries the whole conversation the turn sends (some 190 KB at the default context
 * budget), at every step of every turn. Handed to Node as a string, it is encoded into memory
 * allocated afresh at three times its length, mapped and faulted in each time: about 2 ms more
 * CPU a request than writing it into a buffer already in use (bench/README.md). Smaller bodies
 * come from the allocator's own pages and gain nothing.
 */
export const LARGE_BODY_BYTES = 64 * 1024;

/** Buffers kept for the next bodies; a body larger than the biggest kept gets its own. */
const KEPT_BUFFERS = 4;
const MAX_KEPT_BYTES = 8 * 1024 * 1024;
const kept: Buffer[] = [];

export type OutgoingBody = {
  chunk: string | Uint8Array | undefined;
  /** Call once the bytes are sent: the buffer goes back for the next body. */
  sent(): void;
};

const nothingToReturn = () => {};

/**
 * `body` as it is written to the request: a large text's bytes in a kept buffer, which must not
 * be handed out again until `sent` (a request that fails before then simply lets it go), and
 * anything else as it is.
 */
export function outgoingBody(body: string | Uint8Array | undefined): OutgoingBody {
  if (typeof body !== 'string') return { chunk: body, sent: nothingToReturn };
  const size = Buffer.byteLength(body);
  if (size < LARGE_BODY_BYTES) return { chunk: body, sent: nothingToReturn };
  const index = kept.findIndex((buffer) => buffer.length >= size);
  // Sized to a power of two, so a conversation that grows from turn to turn fits the same one.
  const buffer =
    index === -1
      ? Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(size)))
      : (kept.splice(index, 1)[0] as Buffer);
  buffer.write(body, 0, size, 'utf8');
  let returned = false;
  return {
    chunk: buffer.subarray(0, size),
    sent() {
      // Twice in the list, one buffer would carry two bodies at once.
      if (returned) return;
      returned = true;
      if (kept.length < KEPT_BUFFERS && buffer.length <= MAX_KEPT_BYTES) kept.push(buffer);
    },
  };
}
