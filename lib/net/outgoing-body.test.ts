import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Module from './outgoing-body';

/** A text of `bytes` UTF-8 bytes, some of its characters more than one byte long. */
const textOf = (bytes: number, letter = 'a') => `${'é'.repeat(100)}${letter.repeat(bytes - 200)}`;

const bytesOf = (chunk: string | Uint8Array | undefined) =>
  Buffer.from(chunk as Uint8Array).toString('utf8');
const memoryOf = (body: Module.OutgoingBody) => (body.chunk as Uint8Array).buffer;

// Each test starts with an empty pool.
let outgoingBody: typeof Module.outgoingBody;
let LARGE: number;
beforeEach(async () => {
  vi.resetModules();
  ({ outgoingBody, LARGE_BODY_BYTES: LARGE } = await import('./outgoing-body'));
});

describe('outgoingBody', () => {
  it('passes a small text, bytes and no body as they are', () => {
    const small = textOf(LARGE - 1);
    const bytes = new Uint8Array([1, 2, 3]);
    expect(outgoingBody(small).chunk).toBe(small);
    expect(outgoingBody(bytes).chunk).toBe(bytes);
    expect(outgoingBody(undefined).chunk).toBeUndefined();
  });

  it("gives a large text's UTF-8 bytes, and reuses their buffer once they are sent", () => {
    const first = outgoingBody(textOf(LARGE + 10));
    expect(bytesOf(first.chunk)).toBe(textOf(LARGE + 10));
    first.sent();
    // A longer text, as a conversation grows from turn to turn, fits the same buffer.
    const second = outgoingBody(textOf(LARGE + 5_000, 'b'));
    expect(bytesOf(second.chunk)).toBe(textOf(LARGE + 5_000, 'b'));
    expect(memoryOf(second)).toBe(memoryOf(first));
  });

  it('never hands out a buffer whose bytes are not yet sent, nor one given back twice', () => {
    const first = outgoingBody(textOf(LARGE, 'a'));
    const second = outgoingBody(textOf(LARGE, 'b'));
    expect(memoryOf(second)).not.toBe(memoryOf(first));
    expect(bytesOf(first.chunk)).toBe(textOf(LARGE, 'a'));
    first.sent();
    first.sent();
    const third = outgoingBody(textOf(LARGE, 'c'));
    const fourth = outgoingBody(textOf(LARGE, 'd'));
    expect(memoryOf(fourth)).not.toBe(memoryOf(third));
    expect(bytesOf(third.chunk)).toBe(textOf(LARGE, 'c'));
    expect(bytesOf(second.chunk)).toBe(textOf(LARGE, 'b'));
  });

  it('takes the smallest buffer a text fits, whatever the order they came back in', () => {
    const big = outgoingBody(textOf(4 * LARGE));
    const little = outgoingBody(textOf(LARGE));
    big.sent();
    little.sent();
    expect(memoryOf(outgoingBody(textOf(LARGE)))).toBe(memoryOf(little));
  });

  it('keeps its larger buffers when full', () => {
    const large = outgoingBody(textOf(4 * LARGE));
    const small = Array.from({ length: 4 }, () => outgoingBody(textOf(LARGE)));
    for (const body of small) body.sent();
    large.sent();
    // Four small buffers were kept: the large one took the place of one of them.
    const again = outgoingBody(textOf(4 * LARGE));
    expect(memoryOf(again)).toBe(memoryOf(large));
    const smallAgain = outgoingBody(textOf(LARGE));
    expect(small.map(memoryOf)).toContain(memoryOf(smallAgain));
    smallAgain.sent();
    again.sent();
    // The small text still gets a small buffer, with the large one back in the pool.
    expect(small.map(memoryOf)).toContain(memoryOf(outgoingBody(textOf(LARGE))));
  });
});
