import type { UIMessageChunk } from 'ai';
import { and, asc, eq, gt, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from './client';
import { groupCommit } from './group-commit';
import { sessions, turnChunks } from './schema';
import { storable } from './storable';

// A turn's log: its UI message chunks in order, numbered from 0 across the whole turn, written
// in batches (one row each). See lib/turns for who writes and reads it.

export type LoggedChunk = { seq: number; chunk: UIMessageChunk };

type Batch = { sessionId: string; turnId: string; from: number; chunks: UIMessageChunk[] };

// One group commit per database: the batches of every turn running in this process that wait
// while a write is in flight go in together, in one statement (50 streaming turns make a few
// writes a tick instead of 50).
const appenders = new WeakMap<Db, (batch: Batch) => Promise<void>>();

/** Appends a batch whose first chunk is the turn's chunk number `from`. */
export function appendChunks(
  db: Db,
  sessionId: string,
  turnId: string,
  from: number,
  chunks: UIMessageChunk[],
): Promise<void> {
  let append = appenders.get(db);
  if (!append) {
    append = groupCommit<Batch>(async (batches) => {
      await db.insert(turnChunks).values(
        batches.map((batch) => ({
          turnId: batch.turnId,
          seq: batch.from,
          sessionId: batch.sessionId,
          chunks: storable(batch.chunks),
        })),
      );
    });
    appenders.set(db, append);
  }
  return append({ sessionId, turnId, from, chunks });
}

/** The turn's chunks numbered `from` and later, in order. */
export async function readChunks(db: Db, turnId: string, from = 0): Promise<LoggedChunk[]> {
  const rows = await db
    .select({ seq: turnChunks.seq, chunks: turnChunks.chunks })
    .from(turnChunks)
    // A batch that starts before `from` may still hold chunks after it.
    .where(
      and(
        eq(turnChunks.turnId, turnId),
        gt(sql`${turnChunks.seq} + jsonb_array_length(${turnChunks.chunks})`, from),
      ),
    )
    .orderBy(asc(turnChunks.seq));
  return rows.flatMap(({ seq, chunks }) =>
    chunks.flatMap((chunk, index) => (seq + index >= from ? [{ seq: seq + index, chunk }] : [])),
  );
}

/** Removes the turn's log: it has ended, and its answer is stored. */
export async function deleteTurnLog(db: Db, turnId: string): Promise<void> {
  await db.delete(turnChunks).where(eq(turnChunks.turnId, turnId));
}

/** Removes every turn's log: for a process that knows no turn runs (PGlite's, at start-up). */
export async function deleteAllTurnLogs(db: Db): Promise<void> {
  await db.delete(turnChunks);
}

/**
 * Removes the logs of the session's turns that no longer run: all but its marked turn's. Those
 * of turns that ended are kept a little while for readers on other instances still catching up.
 */
export async function deleteEndedTurnLogs(db: Db, sessionId: string): Promise<void> {
  const running = db
    .select({ turnId: sessions.activeTurnId })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNotNull(sessions.activeTurnId)));
  await db
    .delete(turnChunks)
    .where(and(eq(turnChunks.sessionId, sessionId), notInArray(turnChunks.turnId, running)));
}
