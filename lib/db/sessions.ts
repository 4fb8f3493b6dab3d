import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { newId } from '../ids';
import type { Db } from './client';
import {
  type MessageRow,
  messages,
  notes,
  type SessionRow,
  sessions,
  widgetStates,
} from './schema';
import { storable } from './storable';

export type SessionCursor = { updatedAt: Date; id: string };
export type SessionPatch = Partial<Pick<SessionRow, 'title' | 'model' | 'visibility'>>;
export type NewMessage = Pick<MessageRow, 'role' | 'parts'> &
  Partial<Pick<MessageRow, 'id' | 'metadata'>>;

export const DEFAULT_TITLE = 'New chat';

export async function createSession(
  db: Db,
  input: { ownerId: string; title?: string; model?: string | null },
): Promise<SessionRow> {
  // Timestamps come from here, not now(), so they keep the millisecond precision cursors use.
  const now = new Date();
  const [row] = await db
    .insert(sessions)
    .values({
      id: newId(),
      ownerId: input.ownerId,
      title: input.title ?? DEFAULT_TITLE,
      model: input.model ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row as SessionRow;
}

export async function getSession(db: Db, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row;
}

export async function listMessages(db: Db, sessionId: string): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(eq(messages.sessionId, sessionId))
    .orderBy(asc(messages.position));
}

/** An owner's sessions, most recently updated first, `limit` at a time. */
export async function listSessions(
  db: Db,
  ownerId: string,
  { limit, after }: { limit: number; after?: SessionCursor },
): Promise<{ sessions: SessionRow[]; next?: SessionCursor }> {
  const page = await db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.ownerId, ownerId),
        after &&
          or(
            lt(sessions.updatedAt, after.updatedAt),
            and(eq(sessions.updatedAt, after.updatedAt), lt(sessions.id, after.id)),
          ),
      ),
    )
    .orderBy(desc(sessions.updatedAt), desc(sessions.id))
    .limit(limit + 1);
  const rows = page.slice(0, limit);
  const last = rows.at(-1);
  return page.length > limit && last
    ? { sessions: rows, next: { updatedAt: last.updatedAt, id: last.id } }
    : { sessions: rows };
}

export async function updateSession(
  db: Db,
  id: string,
  patch: SessionPatch,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(sessions.id, id))
    .returning();
  return row;
}

export async function deleteSession(db: Db, id: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(eq(sessions.id, id))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** Appends messages after the session's last one, in order, made storable (lib/db/storable). */
export async function appendMessages(
  db: Db,
  sessionId: string,
  added: NewMessage[],
): Promise<MessageRow[]> {
  return db.transaction(async (tx) => {
    const [last] = await tx
      .select({ position: messages.position })
      .from(messages)
      .where(eq(messages.sessionId, sessionId))
      .orderBy(desc(messages.position))
      .limit(1);
    const start = (last?.position ?? -1) + 1;
    const rows = await tx
      .insert(messages)
      .values(
        added.map((message, index) => ({
          id: message.id ?? newId(),
          sessionId,
          position: start + index,
          role: message.role,
          parts: storable(message.parts),
          metadata: storable(message.metadata ?? null),
        })),
      )
      .returning();
    await tx.update(sessions).set({ updatedAt: new Date() }).where(eq(sessions.id, sessionId));
    return rows;
  });
}

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

/** Renews the running-turn mark, if it is still `turnId`'s: a long turn is not a dead one. */
export async function renewTurn(db: Db, sessionId: string, turnId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ activeTurnStartedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)));
}

/** Clears the running-turn mark, if it is still `turnId`'s. */
export async function releaseTurn(db: Db, sessionId: string, turnId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ activeTurnId: null, activeTurnStartedAt: null, updatedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)));
}

/** Deletes the session's messages from `position` on: the start of an edit or a regenerate. */
export async function truncateMessages(db: Db, sessionId: string, position: number): Promise<void> {
  await db.transaction(async (tx) => {
    const dropped = await tx
      .delete(messages)
      .where(and(eq(messages.sessionId, sessionId), gte(messages.position, position)))
      .returning({ parts: messages.parts });
    // The widgets those messages opened go with them (a session-wide widget stays).
    const toolCallIds = dropped.flatMap(({ parts }) =>
      parts.flatMap((part) =>
        'toolCallId' in part && typeof part.toolCallId === 'string' ? [part.toolCallId] : [],
      ),
    );
    if (toolCallIds.length === 0) return;
    await tx
      .delete(widgetStates)
      .where(
        and(eq(widgetStates.sessionId, sessionId), inArray(widgetStates.toolCallId, toolCallIds)),
      );
  });
}

/** The session's message that holds a tool call (jsonb containment on its parts), if any. */
export async function findToolCallMessage(
  db: Db,
  sessionId: string,
  toolCallId: string,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.sessionId, sessionId),
        sql`${messages.parts} @> ${JSON.stringify([{ toolCallId }])}::jsonb`,
      ),
    )
    .limit(1);
  return row;
}

/** Whether any session has a message with this id (ids are global keys). */
export async function messageExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: messages.id }).from(messages).where(eq(messages.id, id));
  return row !== undefined;
}

/**
 * Stores a message under its id: appended the first time, its parts and metadata replaced after;
 * made storable (lib/db/storable) either way.
 */
export async function saveMessage(
  db: Db,
  sessionId: string,
  message: Required<Pick<NewMessage, 'id'>> & NewMessage,
): Promise<void> {
  const updated = await db
    .update(messages)
    .set({ parts: storable(message.parts), metadata: storable(message.metadata ?? null) })
    .where(and(eq(messages.id, message.id), eq(messages.sessionId, sessionId)))
    .returning({ id: messages.id });
  if (updated.length === 0) await appendMessages(db, sessionId, [message]);
}

/**
 * Copies a session — its messages, widget states and notes — into a new private one owned by
 * `ownerId`.
 */
export async function forkSession(
  db: Db,
  source: SessionRow,
  ownerId: string,
): Promise<SessionRow> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [fork] = await tx
      .insert(sessions)
      .values({
        id: newId(),
        ownerId,
        title: source.title,
        model: source.model,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const forkId = (fork as SessionRow).id;
    const sourceMessages = await tx
      .select()
      .from(messages)
      .where(eq(messages.sessionId, source.id))
      .orderBy(asc(messages.position));
    if (sourceMessages.length > 0) {
      await tx.insert(messages).values(
        sourceMessages.map((message) => ({
          ...message,
          id: newId(),
          sessionId: forkId,
          createdAt: now,
        })),
      );
    }
    const states = await tx
      .select()
      .from(widgetStates)
      .where(eq(widgetStates.sessionId, source.id));
    if (states.length > 0) {
      await tx
        .insert(widgetStates)
        .values(
          states.map((state) => ({ ...state, sessionId: forkId, version: 1, updatedAt: now })),
        );
    }
    // Notes keep their exact times (a Date would cut microseconds), so they list as in the source.
    const sourceNotes = await tx
      .select({ text: notes.text, createdAt: sql<string>`${notes.createdAt}::text` })
      .from(notes)
      .where(eq(notes.sessionId, source.id));
    if (sourceNotes.length > 0) {
      await tx.insert(notes).values(
        sourceNotes.map((note) => ({
          id: newId(),
          sessionId: forkId,
          text: note.text,
          createdAt: sql`${note.createdAt}::timestamptz`,
        })),
      );
    }
    return fork as SessionRow;
  });
}
