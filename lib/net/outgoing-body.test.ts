import { describe, expect, it } from 'vitest';
import { LARGE_BODY_BYTES, outgoingBody } from './outgoing-body';

/** A text of `bytes` UTF-8 bytes, some of its characters more than one byte long. */
const textOf = (bytes: number, letter = 'a') => `${'é'.repeat(100)}${letter.repeat(bytes - 200)}`;

const bytesOf = (chunk: string | Uint8Array | undefined) =>
  Buffer.from(chunk as Uint8Array).toString('utf8');

describe('outgoingBody', () => {
  it('passes a small text, bytes and no body as they are', () => {
    const small = textOf(LARGE_BODY_BYTES - 1);
    const bytes = new Uint8Array([1, 2, 3]);
    expect(outgoingBody(small).chunk).toBe(small);
    expect(outgoingBody(bytes).chunk).toBe(bytes);
    expect(outgoingBody(undefined).chunk).toBeUndefined();
  });

  it("gives a large text's UTF-8 bytes, and reuses their buffer once they are sent", () => {
    const first = outgoingBody(textOf(LARGE_BODY_BYTES + 10));
    expect(bytesOf(first.chunk)).toBe(textOf(LARGE_BODY_BYTES + 10));
    first.sent();
    // A longer text, as a conversation grows from turn to turn, fits the same buffer.
    const second = outgoingBody(textOf(LARGE_BODY_BYTES + 5_000, 'b'));
    expect(bytesOf(second.chunk)).toBe(textOf(LARGE_BODY_BYTES + 5_000, 'b'));
    expect((second.chunk as Uint8Array).buffer).toBe((first.chunk as Uint8Array).buffer);
    second.sent();
  });

  it('never hands out a buffer whose bytes are not yet sent, nor one given back twice', () => {
    const first = outgoingBody(textOf(LARGE_BODY_BYTES, 'a'));
    const second = outgoingBody(textOf(LARGE_BODY_BYTES, 'b'));
    expect((second.chunk as Uint8Array).buffer).not.toBe((first.chunk as Uint8Array).buffer);
    expect(bytesOf(first.chunk)).toBe(textOf(LARGE_BODY_BYTES, 'a'));
    first.sent();
    first.sent();
    const third = outgoingBody(textOf(LARGE_BODY_BYTES, 'c'));
    const fourth = outgoingBody(textOf(LARGE_BODY_BYTES, 'd'));
    expect((fourth.chunk as Uint8Array).buffer).not.toBe((third.chunk as Uint8Array).buffer);
    expect(bytesOf(third.chunk)).toBe(textOf(LARGE_BODY_BYTES, 'c'));
    expect(bytesOf(second.chunk)).toBe(textOf(LARGE_BODY_BYTES, 'b'));
    for (const body of [second, third, fourth]) body.sent();
  });
});
