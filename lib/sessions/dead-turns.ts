import 'server-only';
import { isNotNull } from 'drizzle-orm';
import { interruptedMessage } from '../agent/turn-message';
import { maxToolInputBytes } from '../config';
import type { Db } from '../db/client';
import { type HeldTurn, type SessionRow, sessions } from '../db/schema';
import { deleteAllTurnLogs, deleteTurnLog, readChunks } from '../db/turn-log';
import { closeTurn } from '../db/turns';
import { publish } from '../events/session-events';
import { runningTurn } from '../turns/running-turns';
import { stopKey, turnBus } from '../turns/turn-bus';
import { isStale } from './turn-mark';

// A turn whose server died mid-answer (a crash, a kill, a deploy) left its mark on the session
// and its log in the database. Whoever next reads or prompts the session closes it: the answer
// the log holds is stored, marked interrupted, and the session takes prompts again.

/**
 * Stores what the turn's log holds as its interrupted answer and frees the session, if the mark
 * is still this turn's; says whether it was.
 */
export async function closeFromLog(db: Db, { sessionId, turnId }: HeldTurn): Promise<boolean> {
  const logged = await readChunks(db, turnId);
  const message = await interruptedMessage(
    logged.map(({ chunk }) => chunk),
    maxToolInputBytes(),
  );
  const answer = message && {
    id: message.id,
    role: 'assistant' as const,
    parts: message.parts,
    metadata: message.metadata ?? null,
  };
  return closeTurn(db, { sessionId, turnId }, answer);
}

/**
 * Closes the turn from its log (`closeFromLog`) and removes the log, if the mark is still this
 * turn's. Should the turn in fact still run somewhere (it was only silent), it is told to stop:
 * two turns must not write one session.
 */
export async function closeInterruptedTurn(
  db: Db,
  sessionId: string,
  turnId: string,
): Promise<void> {
  turnBus().publish(stopKey(turnId), { type: 'stop' });
  // Closed elsewhere already, or ended: its log is its closer's or its readers'.
  if (!(await closeFromLog(db, { sessionId, turnId }))) return;
  await deleteTurnLog(db, turnId);
  publish(sessionId, { type: 'turn', status: 'ended' });
}

/**
 * Closes the session's turn if its mark is stale and it does not run here; says whether it did.
 * The session row given is as read before: the caller reads it again if it needs the change.
 */
export async function closeIfDead(db: Db, session: SessionRow): Promise<boolean> {
  const turnId = session.activeTurnId;
  if (turnId === null || !isStale(session) || runningTurn(session.id)) return false;
  await closeInterruptedTurn(db, session.id, turnId);
  return true;
}

/**
 * With PGlite only this process opens the data folder, so at start-up every marked turn died
 * with the process before: each is closed now rather than after the stale window, and every log
 * left is removed.
 */
export async function closeTurnsOfDeadProcess(db: Db): Promise<void> {
  const marked = await db
    .select({ id: sessions.id, turnId: sessions.activeTurnId })
    .from(sessions)
    .where(isNotNull(sessions.activeTurnId));
  for (const { id, turnId } of marked) {
    if (turnId) await closeInterruptedTurn(db, id, turnId);
  }
  // Ended turns' logs whose removal, 30 s after their end, died with the process too: a session
  // of short turns alone would never remove them (they write no log of their own).
  await deleteAllTurnLogs(db);
}
