import type { UIMessageChunk } from 'ai';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { textDelta as delta } from '@/tests/helpers/turn-chunks';
import type { QuantaMessage } from '../protocol';
import { FINAL_SAVE_RETRIES_MS, LOG_BATCH_MS, turnRecorder } from './turn-recorder';

const opening: UIMessageChunk[] = [
  // runTurn's start chunk says the message is streaming (see lib/agent/run-turn.ts).
  {
    type: 'start',
    messageId: 'm1',
    messageMetadata: { model: 'demo:offline', status: 'streaming' },
  },
  { type: 'start-step' },
  { type: 'text-start', id: 't' },
];
const closing: UIMessageChunk[] = [
  { type: 'text-end', id: 't' },
  { type: 'finish-step' },
  { type: 'finish' },
];
const final: QuantaMessage = {
  id: 'm1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'Hello', state: 'done' }],
  metadata: { model: 'demo:offline', status: 'complete' },
};

/** A model's stream the test writes to, at its own pace. */
function source() {
  let controller: ReadableStreamDefaultController<UIMessageChunk> | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(opened) {
      controller = opened;
    },
  });
  return {
    stream,
    push: (...chunks: UIMessageChunk[]) => {
      for (const chunk of chunks) controller?.enqueue(chunk);
    },
    close: () => controller?.close(),
    fail: (error: Error) => controller?.error(error),
  };
}

/** A promise the test settles when it wants. */
function gate() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * The recorder with an in-memory log and store. Save number n (from 1) and log write number n
 * first wait for `saveWaits(n)` / `writeWaits(n)`, if anything: a slow database.
 */
function recorder({
  saveWaits = (_call: number): Promise<void> | undefined => undefined,
  writeWaits = (_call: number): Promise<void> | undefined => undefined,
  followedElsewhere = true,
} = {}) {
  const log: UIMessageChunk[] = [];
  const saves: QuantaMessage[] = [];
  let stored: QuantaMessage | undefined;
  let writes = 0;
  const recording = turnRecorder({
    logBatchMs: LOG_BATCH_MS,
    followedElsewhere,
    writeLog: async (from, chunks) => {
      await writeWaits(++writes);
      // A batch goes right after the last: the log has no hole and no overlap.
      expect(from).toBe(log.length);
      log.push(...chunks);
    },
    save: async (message) => {
      saves.push(message);
      await saveWaits(saves.length);
      stored = message;
      return 'stored' as const;
    },
  });
  return { recording, log, saves, stored: () => stored };
}

const textOf = (message: QuantaMessage | undefined) =>
  message?.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

beforeEach(() => {
  vi.useFakeTimers();
  // The log writes at the ticks of the clock: from 0, the first of a second's is at 1,000 ms.
  vi.setSystemTime(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('hands every chunk to the feed and to the log, in order', async () => {
  const { recording, log } = recorder();
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('He'));
  // Past the first tick: two batches, the second at the end.
  await vi.advanceTimersByTimeAsync(LOG_BATCH_MS.unfollowed + 250);
  expect(log).toEqual([...opening, delta('He')]);
  model.push(delta('l'), delta('lo'));
  await vi.advanceTimersByTimeAsync(30);
  model.push(...closing);
  model.close();
  await recorded;
  const chunks = [...opening, delta('He'), delta('l'), delta('lo'), ...closing];
  expect(recording.feed.written).toEqual(chunks);
  expect(log).toEqual(chunks);
});

it('logs once a second until a reader on another instance follows the turn, then live', async () => {
  const { recording, log } = recorder();
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening);
  await vi.advanceTimersByTimeAsync(300);
  expect(log).toEqual([]);
  recording.followed();
  await vi.advanceTimersByTimeAsync(LOG_BATCH_MS.followed);
  expect(log).toEqual(opening);
  model.push(delta('Hi'));
  await vi.advanceTimersByTimeAsync(LOG_BATCH_MS.followed);
  expect(log).toEqual([...opening, delta('Hi')]);
  model.push(...closing);
  model.close();
  await recorded;
});

it('stores nothing during a step: the log holds what it writes, the end is saved', async () => {
  const { recording, log, saves, stored } = recorder();
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hel'));
  await vi.advanceTimersByTimeAsync(5_000);
  model.push(delta('lo'));
  await vi.advanceTimersByTimeAsync(5_000);
  expect(saves).toEqual([]);
  expect(log).toEqual([...opening, delta('Hel'), delta('lo')]);
  const ended = recording.onEnd(final);
  model.push(...closing);
  model.close();
  await Promise.all([ended, recorded]);
  expect(saves).toEqual([final]);
  expect(stored()).toEqual(final);
});

it('stores the final message last, even when a step’s save is slower than it', async () => {
  const slow = gate();
  const { recording, saves, stored } = recorder({
    saveWaits: (call) => (call === 1 ? slow.promise : undefined),
  });
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hel'));
  const step = recording.onStep({ ...final, parts: [{ type: 'text', text: 'Hel' }] });
  // The turn ends while the step's save is still being written.
  const ended = recording.onEnd(final);
  model.push(delta('lo'), ...closing);
  model.close();
  await vi.advanceTimersByTimeAsync(10);
  slow.open();
  await Promise.all([step, ended, recorded]);
  expect(saves.map(textOf)).toEqual(['Hel', 'Hello']);
  expect(stored()).toEqual(final);
});

it('ends the feed and the log with the final metadata, and saves nothing after', async () => {
  const { recording, log, saves } = recorder();
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hello'), ...closing);
  // runTurn calls onEnd before its stream closes.
  await recording.onEnd(final);
  model.close();
  await recorded;
  const last = { type: 'message-metadata', messageMetadata: final.metadata };
  expect(recording.feed.written.at(-1)).toEqual(last);
  expect(log.at(-1)).toEqual(last);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(saves).toEqual([final]);
});

it('returns from record() only once the log is written and the saves are stored', async () => {
  const logged = gate();
  const saved = gate();
  const { recording, log, stored } = recorder({
    writeWaits: () => logged.promise,
    saveWaits: () => saved.promise,
  });
  const model = source();
  let done = false;
  const recorded = recording.record(model.stream).then(() => {
    done = true;
  });
  model.push(...opening, delta('Hello'), ...closing);
  void recording.onEnd(final);
  model.close();
  await vi.advanceTimersByTimeAsync(5_000);
  expect(done).toBe(false);
  logged.open();
  await vi.advanceTimersByTimeAsync(5_000);
  expect(done).toBe(false);
  saved.open();
  await recorded;
  expect(log.at(-1)).toEqual({ type: 'message-metadata', messageMetadata: final.metadata });
  expect(stored()).toEqual(final);
});

it('alone, leaves the last chunks of a turn whose final message is stored out of its log', async () => {
  const { recording, log, stored } = recorder({ followedElsewhere: false });
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hel'));
  // Past the first tick: what a crash would have left is written.
  await vi.advanceTimersByTimeAsync(LOG_BATCH_MS.unfollowed);
  model.push(delta('lo'));
  const ended = recording.onEnd(final);
  model.push(...closing);
  model.close();
  await Promise.all([ended, recorded]);
  expect(stored()).toEqual(final);
  expect(log).toEqual([...opening, delta('Hel')]);
  expect(recording.logged()).toBe(true);
  // Nothing more is written later either.
  await vi.advanceTimersByTimeAsync(5 * LOG_BATCH_MS.unfollowed);
  expect(log).toEqual([...opening, delta('Hel')]);
});

it('alone, writes nothing for a turn that ends stored within its first second', async () => {
  const { recording, log } = recorder({ followedElsewhere: false });
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hello'));
  const ended = recording.onEnd(final);
  model.push(...closing);
  model.close();
  await Promise.all([ended, recorded]);
  expect(log).toEqual([]);
  expect(recording.logged()).toBe(false);
});

it('logs what came before a stream that breaks, and still returns', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const { recording, log } = recorder();
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hel'));
  await vi.advanceTimersByTimeAsync(10);
  model.fail(new Error('connection reset'));
  await recorded;
  expect(log).toEqual([...opening, delta('Hel')]);
});

it('ends the feed and the log saying the turn was interrupted when its final save is refused', async () => {
  const log: UIMessageChunk[] = [];
  const recording = turnRecorder({
    logBatchMs: LOG_BATCH_MS,
    followedElsewhere: false,
    writeLog: async (_from, chunks) => {
      log.push(...chunks);
    },
    // The turn no longer holds the session: taken for dead, its answer closed from its log.
    save: async () => 'refused' as const,
  });
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hello'), ...closing);
  await recording.onEnd(final);
  model.close();
  expect(await recorded).toBe('refused');
  const interrupted = { type: 'message-metadata', messageMetadata: { status: 'interrupted' } };
  expect(recording.feed.written.slice(-2)).toEqual([
    { type: 'message-metadata', messageMetadata: final.metadata },
    interrupted,
  ]);
  expect(log.at(-1)).toEqual(interrupted);
});

it('tries a final save that fails again after 0.5 s and 2 s, and says how it fared', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(FINAL_SAVE_RETRIES_MS).toEqual([500, 2_000]);
  for (const failures of [2, 3]) {
    let attempts = 0;
    const log: UIMessageChunk[] = [];
    const recording = turnRecorder({
      logBatchMs: LOG_BATCH_MS,
      followedElsewhere: false,
      writeLog: async (_from, chunks) => {
        log.push(...chunks);
      },
      save: async () => {
        attempts++;
        if (attempts <= failures) throw new Error('connection lost');
        return 'stored' as const;
      },
    });
    const model = source();
    const recorded = recording.record(model.stream);
    model.push(...opening, delta('Hello'), ...closing);
    void recording.onEnd(final);
    model.close();
    const attemptsAfter = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      return attempts;
    };
    expect(await attemptsAfter(499)).toBe(1);
    expect(await attemptsAfter(1)).toBe(2);
    expect(await attemptsAfter(1_999)).toBe(2);
    expect(await attemptsAfter(1)).toBe(3);
    const stored = failures === 2;
    expect(await recorded).toBe(stored ? 'stored' : 'failed');
    expect(recording.feed.written.at(-1)).toEqual({
      type: 'message-metadata',
      messageMetadata: stored ? final.metadata : { status: 'interrupted' },
    });
    // Alone, a stored turn's log ends where its last tick left it, before its closing chunk; a
    // failed one's is whole, for the release to close the turn from.
    expect(log).toEqual(recording.feed.written.slice(0, stored ? -1 : undefined));
  }
});

it('adds its last chunks only once the final message is stored', async () => {
  // Else a read elsewhere, finding a log that says the turn ended, would show no answer so far
  // before the stored message is there to show.
  const slow = gate();
  const { recording, log } = recorder({ saveWaits: () => slow.promise });
  const model = source();
  const recorded = recording.record(model.stream);
  model.push(...opening, delta('Hello'), ...closing);
  void recording.onEnd(final);
  model.close();
  await vi.advanceTimersByTimeAsync(1_000);
  const ends = (chunks: readonly UIMessageChunk[]) =>
    chunks.filter((chunk) => chunk.type === 'message-metadata');
  expect(ends(recording.feed.written)).toEqual([]);
  expect(ends(log)).toEqual([]);
  slow.open();
  await recorded;
  expect(ends(log)).toEqual([{ type: 'message-metadata', messageMetadata: final.metadata }]);
});
