import type { UIMessageChunk } from 'ai';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { textDelta as delta, chunkTexts as texts } from '@/tests/helpers/turn-chunks';
import { logWriter } from './log-writer';

/** A write the test finishes (or fails) when it wants. */
function deferred() {
  let resolve = () => {};
  let reject = (_error: Error) => {};
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

type Call = { from: number; texts: string[] };

/** A write that records its calls; call number n (from 1) waits for `answer(n)`, if anything. */
function recordingWrite(answer: (call: number) => Promise<void> | undefined = () => undefined) {
  const calls: Call[] = [];
  const write = async (from: number, chunks: UIMessageChunk[]) => {
    calls.push({ from, texts: texts(chunks) });
    await answer(calls.length);
  };
  return { calls, write };
}

/** A log of `delayMs` whose first batch, `a`, has gone out and is written when `first` resolves. */
async function writingFirstBatch(delayMs: number) {
  const first = deferred();
  const { calls, write } = recordingWrite((call) => (call === 1 ? first.promise : undefined));
  const log = logWriter(write, delayMs);
  log.add(delta('a'));
  await vi.advanceTimersByTimeAsync(delayMs);
  return { first, calls, log };
}

beforeEach(() => {
  vi.useFakeTimers();
  // Logs write at the ticks of the clock: from 0, a tick is 100 ms after the start.
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('writes the chunks added within the delay in one batch, at most the delay after the first', async () => {
  const { calls, write } = recordingWrite();
  const log = logWriter(write, 100);
  log.add(delta('a'));
  await vi.advanceTimersByTimeAsync(40);
  log.add(delta('b'));
  await vi.advanceTimersByTimeAsync(40);
  log.add(delta('c'));
  await vi.advanceTimersByTimeAsync(19);
  expect(calls).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toEqual([{ from: 0, texts: ['a', 'b', 'c'] }]);
});

it('hurried, writes what waits at the next tick of the shorter period, and so on', async () => {
  const { calls, write } = recordingWrite();
  const log = logWriter(write, 1_000);
  log.add(delta('a'));
  await vi.advanceTimersByTimeAsync(250);
  expect(calls).toEqual([]);
  log.hurry(100);
  // The tick of 100 ms after 250 ms: 300 ms.
  await vi.advanceTimersByTimeAsync(49);
  expect(calls).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls).toEqual([{ from: 0, texts: ['a'] }]);
  log.add(delta('b'));
  await vi.advanceTimersByTimeAsync(100);
  expect(calls).toEqual([
    { from: 0, texts: ['a'] },
    { from: 1, texts: ['b'] },
  ]);
  // A longer period than its own changes nothing.
  log.hurry(1_000);
  log.add(delta('c'));
  await vi.advanceTimersByTimeAsync(100);
  expect(calls.at(-1)).toEqual({ from: 2, texts: ['c'] });
});

it('hurried while a write is in flight, writes the next batch at the next tick of the shorter period', async () => {
  const { first, calls, log } = await writingFirstBatch(1_000);
  expect(calls).toEqual([{ from: 0, texts: ['a'] }]);
  log.add(delta('b'));
  log.hurry(100);
  await vi.advanceTimersByTimeAsync(250);
  first.resolve();
  // Written at 1,250 ms, it waits for the tick at 1,300.
  await vi.advanceTimersByTimeAsync(49);
  expect(calls).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(calls.at(-1)).toEqual({ from: 1, texts: ['b'] });
});

it('discarded, writes nothing more, once the write in flight is done', async () => {
  const { first, calls, log } = await writingFirstBatch(100);
  // A batch counts once it is written, not while it is being written.
  expect(log.wrote()).toBe(false);
  log.add(delta('b'));
  let discarded = false;
  void log.discard().then(() => {
    discarded = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  expect(discarded).toBe(false);
  first.resolve();
  await vi.advanceTimersByTimeAsync(0);
  expect(discarded).toBe(true);
  expect(log.wrote()).toBe(true);
  log.add(delta('c'));
  await log.discard();
  await vi.advanceTimersByTimeAsync(1_000);
  expect(calls).toEqual([{ from: 0, texts: ['a'] }]);
});

it('numbers each batch on from where the last one ended', async () => {
  const { calls, write } = recordingWrite();
  const log = logWriter(write, 100);
  log.add(delta('a'));
  log.add(delta('b'));
  await vi.advanceTimersByTimeAsync(100);
  log.add(delta('c'));
  await vi.advanceTimersByTimeAsync(100);
  log.add(delta('d'));
  log.add(delta('e'));
  await vi.advanceTimersByTimeAsync(100);
  expect(calls).toEqual([
    { from: 0, texts: ['a', 'b'] },
    { from: 2, texts: ['c'] },
    { from: 3, texts: ['d', 'e'] },
  ]);
});

it('writes one batch at a time: chunks added during a slow write go in the next one', async () => {
  const slow = deferred();
  const { calls, write } = recordingWrite((call) => (call === 1 ? slow.promise : undefined));
  const log = logWriter(write, 100);
  log.add(delta('a'));
  await vi.advanceTimersByTimeAsync(100);
  log.add(delta('b'));
  log.add(delta('c'));
  // Long past the delay: the first write still runs, so nothing else is written.
  await vi.advanceTimersByTimeAsync(1_000);
  expect(calls).toEqual([{ from: 0, texts: ['a'] }]);
  slow.resolve();
  await vi.advanceTimersByTimeAsync(100);
  expect(calls).toEqual([
    { from: 0, texts: ['a'] },
    { from: 1, texts: ['b', 'c'] },
  ]);
});

it('keeps the chunks of a failed write and writes them with the next batch: no hole', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const { calls, write } = recordingWrite((call) =>
    call === 1 ? Promise.reject(new Error('database away')) : undefined,
  );
  const log = logWriter(write, 100);
  log.add(delta('a'));
  log.add(delta('b'));
  await vi.advanceTimersByTimeAsync(100);
  log.add(delta('c'));
  await vi.advanceTimersByTimeAsync(100);
  log.add(delta('d'));
  await vi.advanceTimersByTimeAsync(100);
  expect(calls).toEqual([
    { from: 0, texts: ['a', 'b'] },
    { from: 0, texts: ['a', 'b', 'c'] },
    { from: 3, texts: ['d'] },
  ]);
});

it('flush() writes what is pending at once', async () => {
  const { calls, write } = recordingWrite();
  const log = logWriter(write, 100);
  log.add(delta('a'));
  await log.flush();
  expect(calls).toEqual([{ from: 0, texts: ['a'] }]);
  // Nothing is written twice once the timer would have fired.
  await vi.advanceTimersByTimeAsync(1_000);
  expect(calls).toHaveLength(1);
});

it('flush() waits for the write in flight, then writes the rest after it', async () => {
  const slow = deferred();
  const { calls, write } = recordingWrite((call) => (call === 1 ? slow.promise : undefined));
  const log = logWriter(write, 100);
  log.add(delta('a'));
  await vi.advanceTimersByTimeAsync(100);
  log.add(delta('b'));
  let flushed = false;
  const flushing = log.flush().then(() => {
    flushed = true;
  });
  await vi.advanceTimersByTimeAsync(1_000);
  expect(flushed).toBe(false);
  expect(calls).toEqual([{ from: 0, texts: ['a'] }]);
  slow.resolve();
  await flushing;
  expect(calls).toEqual([
    { from: 0, texts: ['a'] },
    { from: 1, texts: ['b'] },
  ]);
});

it('writes the logs of turns running together at the same ticks of the clock', async () => {
  const first = recordingWrite();
  const second = recordingWrite();
  const logs = [logWriter(first.write, 100), logWriter(second.write, 100)];
  await vi.advanceTimersByTimeAsync(10);
  logs[0]?.add(delta('a'));
  await vi.advanceTimersByTimeAsync(50);
  logs[1]?.add(delta('b'));
  await vi.advanceTimersByTimeAsync(39);
  expect([first.calls, second.calls]).toEqual([[], []]);
  // At 100 ms both write: the second's chunk waited 40 ms, the first's 90.
  await vi.advanceTimersByTimeAsync(1);
  expect([first.calls, second.calls]).toEqual([
    [{ from: 0, texts: ['a'] }],
    [{ from: 0, texts: ['b'] }],
  ]);
  // One timer served both, and none is left once nothing waits.
  expect(vi.getTimerCount()).toBe(0);
});

it('clears the shared timer when the last log waiting for it flushes', async () => {
  const logs = [logWriter(recordingWrite().write, 100), logWriter(recordingWrite().write, 100)];
  logs[0]?.add(delta('a'));
  logs[1]?.add(delta('b'));
  expect(vi.getTimerCount()).toBe(1);
  await logs[0]?.flush();
  expect(vi.getTimerCount()).toBe(1);
  await logs[1]?.flush();
  expect(vi.getTimerCount()).toBe(0);
});
