import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from './client';
import { messages, type SessionRow, sessions } from './schema';
import { DEFAULT_TITLE } from './sessions';

// A session's turn mark: the id of the turn running on it and when it last renewed the mark, so
// one turn at a time runs per session, across instances.

/** What a claim needs: whose request it is, and the title an unnamed, empty session takes. */
export type Claim = { sessionId: string; ownerId: string; turnId: string; title?: string };

/**
 * Marks `turnId` as the session's running turn if the session is `ownerId`'s and no turn holds
 * it, and names the session after its first prompt: one atomic update, so two prompts racing on
 * two servers cannot both win. The session as claimed; undefined when it is not there, not the
 * owner's, or taken. A mark left by a dead server is closed (lib/sessions/dead-turns) before a
 * claim can take the session, so that turn's answer is kept.
 */
export async function claimTurn(
  db: Db,
  { sessionId, ownerId, turnId, title }: Claim,
): Promise<SessionRow | undefined> {
  const now = new Date();
  const named =
    title === undefined
      ? sessions.title
      : sql`case when ${sessions.title} = ${DEFAULT_TITLE} and not exists (select 1 from ${messages} where ${messages.sessionId} = ${sessions.id}) then ${title} else ${sessions.title} end`;
  const [claimed] = await db
    .update(sessions)
    .set({ activeTurnId: turnId, activeTurnStartedAt: now, updatedAt: now, title: named })
    .where(
      and(eq(sessions.id, sessionId), eq(sessions.ownerId, ownerId), isNull(sessions.activeTurnId)),
    )
    .returning();
  return claimed;
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
