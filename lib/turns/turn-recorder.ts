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

/**
 * The longest a chunk waits before it goes to the turn's log. Readers here follow the turn's feed
 * in memory; a reader on another instance follows the log, and asks the turn's instance to write
 * it live (see `followTurn`). Until then a batch a second keeps what a crash loses to a second and
 * costs a long answer a sixth less CPU than ten (bench/README.md, A turn's log by the second).
 */
export const LOG_BATCH_MS = Object.freeze({ unfollowed: 1_000, followed: 100 });

/**
 * What became of a save: stored; refused, as the turn no longer holds the session (taken for
 * dead, its answer closed from its log); or not kept as its session is gone.
 */
export type SaveOutcome = 'stored' | 'refused' | 'gone';

/** What became of the final message: a save's outcome, or failed, the database still failing. */
export type FinalSave = SaveOutcome | 'failed';

type Recording = {
  /** Where the turn's log goes (see `logToDatabase`). */
  writeLog: WriteBatch;
  /** The longest a chunk waits before it goes to the log (`LOG_BATCH_MS`). */
  logBatchMs: { readonly unfollowed: number; readonly followed: number };
  /**
   * Whether readers on other instances may follow the turn (there is a Redis between them): the
   * log's last chunks are then written for them whatever became of the turn. Alone, the log is
   * only what a crash leaves, and a stored final message holds all of it.
   */
  followedElsewhere: boolean;
  /**
   * Stores the assistant message (appended the first time, replaced after) while the turn holds
   * the session: the caller decides what a refusal means for the turn.
   */
  save(message: QuantaMessage): Promise<SaveOutcome>;
};

/**
 * The waits before the final save's retries. Between the turn's steps only its log keeps its
 * answer, so a final save lost to a database failing over would leave the transcript without
 * it: a failover is over within seconds.
 */
export const FINAL_SAVE_RETRIES_MS = [500, 2_000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records a turn as it runs: every chunk goes to the feed this instance's readers follow and to
 * the turn's log in the database (whose batches the bus carries to other instances); the stored
 * assistant message is written when a step that called tools ends and at the end (`onStep` and
 * `onEnd` are `runTurn`'s). Between those, the log is what a crash leaves and the feed what a
 * page read here shows (see `answerSoFar`): a save a second cost a long answer a tenth of its
 * CPU. The saves go through one queue, so the final message is stored last.
 */
export function turnRecorder({ writeLog, logBatchMs, followedElsewhere, save }: Recording) {
  const feed = new TurnFeed();
  const log = logWriter(writeLog, logBatchMs.unfollowed);
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `task` once the saves queued before it are done. */
  const queued = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task);
    queue = run.catch(() => {});
    return run;
  };
  const saveFinal = async (message: QuantaMessage): Promise<FinalSave> => {
    for (let retry = 0; ; retry++) {
      try {
        return await save(message);
      } catch (error) {
        console.error('Could not save the turn:', error);
        const wait = FINAL_SAVE_RETRIES_MS[retry];
        if (wait === undefined) return 'failed';
        await sleep(wait);
      }
    }
  };
  let final: { message: QuantaMessage; saved: Promise<FinalSave> } | undefined;

  return {
    feed,
    /** A reader on another instance follows the turn: its log is written live from now on. */
    followed: () => log.hurry(logBatchMs.followed),
    onStep: (message: QuantaMessage) =>
      queued(() => save(message)).then(
        () => {},
        (error: unknown) => console.error('Could not save the turn:', error),
      ),
    onEnd: async (message: QuantaMessage) => {
      final = { message, saved: queued(() => saveFinal(message)) };
      await final.saved;
    },
    /**
     * Reads the turn to its end (whoever else listens) and returns once its saves are done and
     * its log written (see `followedElsewhere`), with what became of the final message
     * (undefined: the turn gave none).
     * Its last chunk says how the turn ended, so every reader shows it at once; should the final
     * message be refused or fail, one more says the turn was interrupted, as the transcript will.
     */
    async record(stream: ReadableStream<UIMessageChunk>): Promise<FinalSave | undefined> {
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
      // runTurn ends its stream once its final save is done (retries included): the last
      // chunks follow the stored message, and say how it fared.
      const saved = await final?.saved;
      await queue;
      const metadata = final?.message.metadata;
      if (metadata) add({ type: 'message-metadata', messageMetadata: metadata });
      if (saved === 'refused' || saved === 'failed') {
        add({ type: 'message-metadata', messageMetadata: { status: 'interrupted' } });
      }
      if (followedElsewhere || saved !== 'stored') await log.flush();
      else await log.discard();
      return saved;
    },
    /** Whether the turn's log holds any chunk: one that wrote none leaves nothing to remove. */
    logged: () => log.wrote(),
  };
}

export type TurnRecorder = ReturnType<typeof turnRecorder>;
