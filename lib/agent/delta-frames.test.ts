import type { UIMessageChunk } from 'ai';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { deltaFrames } from './delta-frames';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const text = (delta: string, id = 't'): UIMessageChunk => ({ type: 'text-delta', id, delta });

/** Feeds chunks through the transform at the given times; returns what came out, and when. */
async function run(input: [at: number, chunk: UIMessageChunk][], endAt: number) {
  const coalesce = deltaFrames<UIMessageChunk>(30);
  const out: [number, UIMessageChunk][] = [];
  const writer = coalesce.writable.getWriter();
  const start = Date.now();
  const reading = (async () => {
    const reader = coalesce.readable.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      out.push([Date.now() - start, read.value]);
    }
  })();
  for (const [at, chunk] of input) {
    await vi.advanceTimersByTimeAsync(at - (Date.now() - start));
    await writer.write(chunk);
  }
  await vi.advanceTimersByTimeAsync(endAt - (Date.now() - start));
  await writer.close();
  await reading;
  return out;
}

it('sends the first delta at once and joins the ones that follow into 30 ms frames', async () => {
  const out = await run(
    [
      [0, text('The ')],
      [5, text('quick ')],
      [10, text('brown ')],
      [40, text('fox ')],
      [45, text('jumps.')],
    ],
    100,
  );
  expect(out).toEqual([
    [0, text('The ')],
    [30, text('quick brown ')],
    [60, text('fox jumps.')],
  ]);
});

it('opens a new frame for a delta after a quiet spell, sending it at once', async () => {
  const out = await run(
    [
      [0, text('a')],
      [100, text('b')],
    ],
    200,
  );
  expect(out).toEqual([
    [0, text('a')],
    [100, text('b')],
  ]);
});

it('keeps the order: another chunk, another part or the end first sends what waits', async () => {
  const reasoning: UIMessageChunk = { type: 'reasoning-delta', id: 'r', delta: 'hmm' };
  const end: UIMessageChunk = { type: 'text-end', id: 't' };
  const out = await run(
    [
      [0, text('a')],
      [5, text('b')],
      [6, reasoning],
      [7, text('c')],
      [8, end],
      [9, text('x', 'u')],
      [10, text('y', 'u')],
    ],
    10,
  );
  expect(out.map(([, chunk]) => chunk)).toEqual([
    text('a'),
    text('b'),
    reasoning,
    text('c'),
    end,
    // Within the frame still open: joined, and sent by the end of the stream, not held for it.
    text('xy', 'u'),
  ]);
  expect(out.at(-1)?.[0]).toBe(10);
});

it('passes a delta with provider metadata on as it is, after what waits', async () => {
  const signed: UIMessageChunk = {
    type: 'reasoning-delta',
    id: 'r',
    delta: '',
    providerMetadata: { anthropic: { signature: 'sig' } },
  };
  const reasoning = (delta: string): UIMessageChunk => ({
    type: 'reasoning-delta',
    id: 'r',
    delta,
  });
  const out = await run(
    [
      [0, reasoning('a')],
      [5, reasoning('b')],
      [6, signed],
      [7, reasoning('c')],
    ],
    50,
  );
  expect(out.map(([, chunk]) => chunk)).toEqual([
    reasoning('a'),
    reasoning('b'),
    signed,
    reasoning('c'),
  ]);
});
