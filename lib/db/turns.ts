import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from './client';
import { sessions } from './schema';

// A session's turn mark: the id of the turn running on it and when it last renewed the mark, so
// one turn at a time runs per session, across instances.

/**
 * Marks `turnId` as the session's running turn unless another one holds it; a mark older than
 * `staleAfterMs` (its server died mid-turn) no longer counts. One atomic update, so two
 * prompts racing on two servers cannot both win.
 */
export async function claimTurn(
  db: Db,
  sessionId: string,
  turnId: string,
  staleAfterMs: number,
): Promise<boolean> {
  const now = new Date();
  const claimed = await db
    .update(sessions)
    .set({ activeTurnId: turnId, activeTurnStartedAt: now, updatedAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        or(
          isNull(sessions.activeTurnId),
          lt(sessions.activeTurnStartedAt, new Date(now.getTime() - staleAfterMs)),
        ),
      ),
    )
    .returning({ id: sessions.id });
  return claimed.length > 0;
}

/**
 * Renews the running-turn mark, if it is still `turnId`'s: a long turn is not a dead one. False
 * when it is not: another turn took the session over (this one was silent past the stale window).
 */
export async function renewTurn(db: Db, sessionId: string, turnId: string): Promise<boolean> {
  const renewed = await db
    .update(sessions)
    .set({ activeTurnStartedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)))
    .returning({ id: sessions.id });
  return renewed.length > 0;
}

/** Clears the running-turn mark, if it is still `turnId`'s. */
export async function releaseTurn(db: Db, sessionId: string, turnId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ activeTurnId: null, activeTurnStartedAt: null, updatedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)));
}
