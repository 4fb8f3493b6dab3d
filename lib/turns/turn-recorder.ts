import type { UIMessageChunk } from 'ai';
import { buildMessage, storedForm } from '../agent/turn-message';
import type { Db } from '../db/client';
import { appendChunks } from '../db/turn-log';
import type { QuantaMessage } from '../protocol';
import { logWriter, type WriteBatch } from './log-writer';
import { feedKey, turnBus } from './turn-bus';
import { TurnFeed } from './turn-feed';

/** A long step's text is saved at least this often, so a crash loses at most this much. */
export const PARTIAL_SAVE_MS = 1_000;

/**
 * Writes a turn's log batches to the database, then tells the turn's readers on every instance:
 * a reader that hears of a batch finds it in the log.
 */
export function logToDatabase(db: Db, sessionId: string, turnId: string): WriteBatch {
  return async (from, chunks) => {
    await appendChunks(db, sessionId, turnId, from, chunks);
    turnBus().publish(feedKey(turnId), { type: 'chunks', from, chunks });
  };
}

type Recording = {
  /** Where the turn's log goes (see `logToDatabase`). */
  writeLog: WriteBatch;
  maxToolInputBytes: number;
  /**
   * Stores the assistant message (appended the first time, replaced after), while the turn holds
   * the session: the caller decides what a refused save means.
   */
  save(message: QuantaMessage): Promise<void>;
};

/**
 * Records a turn as it runs: every chunk goes to the feed this instance's readers follow, to the
 * turn's log in the database (whose batches the bus carries to other instances), and, at least
 * once a second, into the stored assistant message. `onStep` and `onEnd` are `runTurn`'s; every
 * save goes through one queue, so a late partial save never overwrites the final message.
 */
export function turnRecorder({ writeLog, maxToolInputBytes, save }: Recording) {
  const feed = new TurnFeed();
  const log = logWriter(writeLog);
  let saving = Promise.resolve();
  const queue = (task: () => Promise<void>) => {
    saving = saving
      .then(task)
      .catch((error: unknown) => console.error('Could not save the turn:', error));
    return saving;
  };
  let final: QuantaMessage | undefined;
  let partialTimer: NodeJS.Timeout | undefined;
  const savePartial = async () => {
    partialTimer = undefined;
    const message = await buildMessage(feed.written);
    if (message && !final) await save(storedForm(message, maxToolInputBytes));
  };

  return {
    feed,
    onStep: (message: QuantaMessage) => queue(() => save(message)),
    onEnd: (message: QuantaMessage) => {
      final = message;
      clearTimeout(partialTimer);
      return queue(() => save(message));
    },
    /**
     * Reads the turn to its end (whoever else listens) and returns once all of it is logged and
     * stored. Its last chunk says how the turn ended, so every reader shows it at once.
     */
    async record(stream: ReadableStream<UIMessageChunk>): Promise<void> {
      const add = (chunk: UIMessageChunk) => {
        feed.append(chunk);
        log.add(chunk);
      };
      const reader = stream.getReader();
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          add(read.value);
          partialTimer ??= final
            ? undefined
            : setTimeout(() => void queue(savePartial), PARTIAL_SAVE_MS);
        }
      } catch (error) {
        console.error('A turn ended abnormally:', error);
      }
      clearTimeout(partialTimer);
      if (final?.metadata) add({ type: 'message-metadata', messageMetadata: final.metadata });
      await Promise.all([log.close(), saving]);
    },
  };
}

export type TurnRecorder = ReturnType<typeof turnRecorder>;
