import type { UIMessageChunk } from 'ai';

/** Writes the batch of chunks numbered `from` and on; rejects when it was not written. */
export type WriteBatch = (from: number, chunks: UIMessageChunk[]) => Promise<void>;

export type LogWriter = {
  add(chunk: UIMessageChunk): void;
  /**
   * Writes what is pending now, after the write in flight; resolves once done (or failed). A
   * chunk added later waits for its tick as before.
   */
  flush(): Promise<void>;
  /** Drops what is pending, and waits for the write in flight: the log is left as it is. */
  discard(): Promise<void>;
  /** Whether any batch has been written. */
  wrote(): boolean;
  /**
   * From now on a chunk waits at most `delayMs`, if that is shorter: what waits already goes at
   * the next tick of the shorter period.
   */
  hurry(delayMs: number): void;
};

/** The tasks waiting for the next tick of each period, and the one timer that runs them. */
const ticks = new Map<number, { tasks: Set<() => void>; timer: NodeJS.Timeout }>();

/**
 * Runs `task` at the next multiple of `periodMs` on the clock, with every other task waiting
 * for it; returns what cancels it. One timer serves all of them, and the last cancel clears it.
 */
export function atNextTick(task: () => void, periodMs: number): () => void {
  let tick = ticks.get(periodMs);
  if (!tick) {
    const tasks = new Set<() => void>();
    const timer = setTimeout(
      () => {
        ticks.delete(periodMs);
        for (const waiting of tasks) waiting();
      },
      periodMs - (Date.now() % periodMs),
    );
    tick = { tasks, timer };
    ticks.set(periodMs, tick);
  }
  const { tasks, timer } = tick;
  tasks.add(task);
  return () => {
    tasks.delete(task);
    if (tasks.size === 0 && ticks.get(periodMs)?.tasks === tasks) {
      clearTimeout(timer);
      ticks.delete(periodMs);
    }
  };
}

/**
 * Batches a turn's chunks for its log: a write at most `delayMs` (`LOG_BATCH_MS`, turn-recorder)
 * after the first chunk that waits, one write at a time, in order. Every turn's log writes at the
 * same ticks of the clock, so the turns running together write in one statement (the log's group
 * commit) rather than one each. A batch that fails stays pending and goes with the next write, so
 * the log never has a hole; it may only lag while the database is away.
 */
export function logWriter(write: WriteBatch, delayMs: number): LogWriter {
  let periodMs = delayMs;
  let written = 0;
  const pending: UIMessageChunk[] = [];
  let cancelTick: (() => void) | undefined;
  let writing: Promise<void> | undefined;

  const flush = async (): Promise<void> => {
    cancelTick = undefined;
    const batch = pending.slice();
    if (batch.length === 0) return;
    try {
      await write(written, batch);
      written += batch.length;
      pending.splice(0, batch.length);
    } catch (error) {
      console.error(`Writing a turn's log failed (retried with the next batch):`, error);
    }
  };
  const schedule = () => {
    if (cancelTick || writing || pending.length === 0) return;
    cancelTick = atNextTick(() => {
      writing = flush().finally(() => {
        writing = undefined;
        schedule();
      });
    }, periodMs);
  };
  const unschedule = () => {
    cancelTick?.();
    cancelTick = undefined;
  };

  return {
    add(chunk) {
      pending.push(chunk);
      schedule();
    },
    async flush() {
      unschedule();
      // A write in flight re-schedules itself when done: wait until nothing is in flight.
      while (writing) {
        await writing;
        unschedule();
      }
      await flush();
    },
    async discard() {
      unschedule();
      pending.length = 0;
      await writing;
    },
    wrote: () => written > 0,
    hurry(delayMs) {
      if (delayMs >= periodMs) return;
      periodMs = delayMs;
      if (!cancelTick) return;
      unschedule();
      schedule();
    },
  };
}
