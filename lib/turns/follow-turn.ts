import type { UIMessageChunk } from 'ai';
import type { Db } from '../db/client';
import { readChunks } from '../db/turn-log';
import { feedKey, followKey, type TurnMessage, turnBus } from './turn-bus';

/** How often a follower checks that the turn still runs, in case its end was not heard. */
export const WATCH_TURN_MS = 2_000;

type Following = {
  db: Db;
  turnId: string;
  /** The first chunk wanted. */
  from: number;
  /** False once the turn no longer runs (it ended, or its server died). */
  stillRunning(): Promise<boolean>;
  watchEveryMs?: number;
};

/**
 * A turn that runs on another instance, from chunk `from` on: what its log holds, then its live
 * tail from the bus, until it ends. Each chunk comes once and in order: a batch heard twice is
 * skipped, and a batch missed (heard after a later one, or lost with Redis) is read from the log,
 * which every batch reaches before it is published. An unfollowed turn's log is written once a
 * second, so the follower asks for it live (`LOG_BATCH_MS`), and asks again at each watch: an ask
 * is lost if it comes before the turn's instance listens.
 */
export function followTurn({
  db,
  turnId,
  from,
  stillRunning,
  watchEveryMs = WATCH_TURN_MS,
}: Following): ReadableStream<UIMessageChunk> {
  let next = from;
  let finished = false;
  let work = Promise.resolve();
  let stop = () => {};
  return new ReadableStream<UIMessageChunk>({
    start(controller) {
      const take = (seq: number, chunk: UIMessageChunk) => {
        if (seq !== next) return;
        controller.enqueue(chunk);
        next += 1;
      };
      const catchUp = async () => {
        for (const { seq, chunk } of await readChunks(db, turnId, next)) take(seq, chunk);
      };
      const finish = async () => {
        await catchUp();
        stop();
        controller.close();
      };
      // One at a time, in the order heard: the log is read while bus messages wait their turn.
      const serially = (task: () => Promise<void>) => {
        work = work.then(async () => {
          if (finished) return;
          try {
            await task();
          } catch (error) {
            stop();
            controller.error(error);
          }
        });
      };
      const hear = (message: TurnMessage) =>
        serially(async () => {
          if (message.type === 'end') return finish();
          if (message.type !== 'chunks') return;
          if (message.from > next) return catchUp();
          for (const [index, chunk] of message.chunks.entries()) take(message.from + index, chunk);
        });
      // Listening first, then reading the log: a batch written in between is heard.
      const unsubscribe = turnBus().subscribe(feedKey(turnId), hear);
      const ask = () => turnBus().publish(followKey(turnId), { type: 'follow' });
      ask();
      const watch = setInterval(() => {
        ask();
        serially(async () => {
          if (!(await stillRunning())) await finish();
        });
      }, watchEveryMs);
      watch.unref();
      stop = () => {
        finished = true;
        unsubscribe();
        clearInterval(watch);
      };
      serially(catchUp);
    },
    cancel() {
      stop();
    },
  });
}
