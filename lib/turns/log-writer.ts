import type { UIMessageChunk } from 'ai';

/** A chunk waits at most this long before it is written to the turn's log. */
export const LOG_BATCH_MS = 100;

/** Writes the batch of chunks numbered `from` and on; rejects when it was not written. */
export type WriteBatch = (from: number, chunks: UIMessageChunk[]) => Promise<void>;

export type LogWriter = {
  add(chunk: UIMessageChunk): void;
  /** Writes what is pending and stops; resolves once the last write is done (or failed). */
  close(): Promise<void>;
};

/**
 * Batches a turn's chunks for its log: a write at most `delayMs` after the first chunk that
 * waits, one write at a time, in order. A batch that fails stays pending and goes with the next
 * write, so the log never has a hole; it may only lag while the database is away.
 */
export function logWriter(write: WriteBatch, delayMs = LOG_BATCH_MS): LogWriter {
  let written = 0;
  const pending: UIMessageChunk[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;

  const flush = async (): Promise<void> => {
    timer = undefined;
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
    if (timer || writing || pending.length === 0) return;
    timer = setTimeout(() => {
      writing = flush().finally(() => {
        writing = undefined;
        schedule();
      });
    }, delayMs);
  };

  return {
    add(chunk) {
      pending.push(chunk);
      schedule();
    },
    async close() {
      clearTimeout(timer);
      timer = undefined;
      // A write in flight re-schedules itself when done: wait until nothing is in flight.
      while (writing) {
        await writing;
        clearTimeout(timer);
        timer = undefined;
      }
      await flush();
    },
  };
}
