/**
 * A large request body's bytes, written into a buffer kept from one request to the next. A model
 * request carries the whole conversation the turn sends (some 190 KB at the default context
 * budget), at every step of every turn. Handed to Node as a string, it is encoded into memory
 * allocated afresh at three times its length, mapped and faulted in each time: about 2 ms more
 * CPU a request than writing it into a buffer already in use (bench/README.md). Smaller bodies
 * come from the allocator's own pages and gain nothing.
 */
export const LARGE_BODY_BYTES = 64 * 1024;

// At most 32 MB kept, and only after bodies that large; a body over 8 MB gets a buffer that is
// dropped once sent.
const KEPT_BUFFERS = 4;
const MAX_KEPT_BYTES = 8 * 1024 * 1024;
/** Kept buffers, the smallest first. */
const kept: Buffer[] = [];

export type OutgoingBody = {
  /** What to write; bytes of a kept buffer are the next body's once `sent` is called. */
  chunk: string | Uint8Array | undefined;
  /**
   * Call once the request has handed the bytes to the system (its `finish`): the buffer goes
   * back for the next body. A request that fails first does not call it: the buffer is let go.
   */
  sent(): void;
};

const nothingToReturn = () => {};

/** `body` as it is written to the request: a large text's bytes in a kept buffer, else as it is. */
export function outgoingBody(body: string | Uint8Array | undefined): OutgoingBody {
  // Three bytes at most for each of a string's UTF-16 units.
  if (typeof body !== 'string' || body.length * 3 < LARGE_BODY_BYTES) {
    return { chunk: body, sent: nothingToReturn };
  }
  const size = Buffer.byteLength(body);
  if (size < LARGE_BODY_BYTES) return { chunk: body, sent: nothingToReturn };
  const buffer = take(size);
  buffer.write(body, 0, size, 'utf8');
  let returned = false;
  return {
    chunk: buffer.subarray(0, size),
    sent() {
      // Twice in the pool, one buffer would carry two bodies at once.
      if (returned) return;
      returned = true;
      giveBack(buffer);
    },
  };
}

/** The smallest kept buffer that holds `size` bytes, out of the pool, or a new one. */
function take(size: number): Buffer {
  const index = kept.findIndex((buffer) => buffer.length >= size);
  // Sized to a power of two, so a conversation that grows from turn to turn fits the same one.
  return index === -1
    ? Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(size)))
    : (kept.splice(index, 1)[0] as Buffer);
}

/** Keeps `buffer` for a later body; a full pool keeps its larger buffers, which fit more. */
function giveBack(buffer: Buffer): void {
  if (buffer.length > MAX_KEPT_BYTES) return;
  const larger = kept.findIndex((each) => each.length > buffer.length);
  kept.splice(larger === -1 ? kept.length : larger, 0, buffer);
  if (kept.length > KEPT_BUFFERS) kept.shift();
}
