import type { UIMessageChunk } from 'ai';
import type { Db } from '../db/client';
import { appendChunks } from '../db/turn-log';
import type { QuantaMessage } from '../protocol';
import { logWriter, type WriteBatch } from './log-writer';
import { feedKey, turnBus } from './turn-bus';
import { TurnFeed } from './turn-feed';

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
  /**
   * Stores the assistant message (appended the first time, replaced after), while the turn holds
   * the session: the caller decides what a refused save means.
   */
  save(message: QuantaMessage): Promise<void>;
};

/**
 * Records a turn as it runs: every chunk goes to the feed this instance's readers follow and to
 * the turn's log in the database (whose batches the bus carries to other instances); the stored
 * assistant message is written when a step that called tools ends and at the end (`onStep` and
 * `onEnd` are `runTurn`'s). Between those, the log is what a crash leaves and the feed what a
 * page read here shows (see `answerSoFar`): a save a second cost a long answer a tenth of its
 * CPU. The saves go through one queue, so the final message is stored last.
 */
export function turnRecorder({ writeLog, save }: Recording) {
  const feed = new TurnFeed();
  const log = logWriter(writeLog);
  let saving = Promise.resolve();
  const store = (message: QuantaMessage) => {
    saving = saving
      .then(() => save(message))
      .catch((error: unknown) => console.error('Could not save the turn:', error));
    return saving;
  };
  let final: QuantaMessage | undefined;

  return {
    feed,
    onStep: store,
    onEnd: (message: QuantaMessage) => {
      final = message;
      return store(message);
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
        }
      } catch (error) {
        console.error('A turn ended abnormally:', error);
      }
      if (final?.metadata) add({ type: 'message-metadata', messageMetadata: final.metadata });
      await Promise.all([log.close(), saving]);
    },
  };
}

export type TurnRecorder = ReturnType<typeof turnRecorder>;
