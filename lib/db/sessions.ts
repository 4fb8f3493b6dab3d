import { and, asc, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { ContextSummary } from '../agent/compaction';
import { newId } from '../ids';
import type { Db } from './client';
import {
  type HeldTurn,
  type MessageRow,
  messages,
  notes,
  type SessionRow,
  sessions,
  widgetStates,
} from './schema';
import { storable } from './storable';
import { withAnswer } from './with-answer';

export type SessionCursor = { updatedAt: Date; id: string };

/** The columns a list of sessions reads: what a session's view is made of. */
const listed = {
  id: sessions.id,
  ownerId: sessions.ownerId,
  title: sessions.title,
  model: sessions.model,
  visibility: sessions.visibility,
  createdAt: sessions.createdAt,
  updatedAt: sessions.updatedAt,
  activeTurnId: sessions.activeTurnId,
  activeTurnStartedAt: sessions.activeTurnStartedAt,
};

/**
 * What a list of sessions holds of each: not the summary its model gets of the earlier messages,
 * up to a quarter of the context budget (tens of kB) that a list would read and throw away.
 */
export type ListedSession = Pick<SessionRow, keyof typeof listed>;

export type SessionPatch = Partial<Pick<SessionRow, 'title' | 'model' | 'visibility'>>;

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

/**
 * Keeps the model's summary of the session's earlier messages (see lib/agent/compaction), written
 * by the turn `turnId`: only while that turn holds the session's mark, as every writer of what
 * the model is sent does. False when it was not kept. A turn closed as dead could otherwise bring
 * back a summary an edit had dropped, over messages the edit rewrote.
 */
export async function storeContextSummary(
  db: Db,
  { sessionId, turnId }: HeldTurn,
  summary: ContextSummary,
): Promise<boolean> {
  const stored = await db
    .update(sessions)
    .set({ contextSummary: storable(summary) })
    .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)))
    .returning({ id: sessions.id });
  return stored.length > 0;
}

/** An owner's sessions, most recently updated first, `limit` at a time. */
export async function listSessions(
  db: Db,
  ownerId: string,
  { limit, after }: { limit: number; after?: SessionCursor },
): Promise<{ sessions: ListedSession[]; next?: SessionCursor }> {
  const page = await db
    .select(listed)
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

/**
 * Whether turn `turnId` still holds the session's mark, kept so until the transaction ends: the
 * turn's saves and its release lock the session's row too, and wait.
 */
async function turnHolds(db: Db, { sessionId, turnId }: HeldTurn): Promise<boolean> {
  const [held] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)))
    .for('share');
  return held !== undefined;
}

/** A running turn's answer so far, as a fork copies it (see `forkSession`). */
export type ForkedAnswer = { turnId: string } & Pick<MessageRow, 'id' | 'parts' | 'metadata'>;

/** `answer` as a row of the session's `rows`: the one a step stored of it, or one after them. */
function answerAsRow(answer: ForkedAnswer, rows: MessageRow[]): MessageRow | undefined {
  const { turnId: _, ...copied } = storable(answer);
  const stepSaved = rows.find(({ id }) => id === answer.id);
  if (stepSaved) return { ...stepSaved, ...copied };
  const last = rows.at(-1);
  return last && { ...last, ...copied, role: 'assistant', position: last.position + 1 };
}

/**
 * Copies a session — its messages, widget states, notes and the model's summary — into a new
 * private one owned by `ownerId`. A turn running on the source stores its answer only at its
 * steps' ends: `answer`, what turn `answer.turnId` had written when asked, is copied in place of
 * what a step stored (status `streaming`), or after the prompt, if that turn still holds the
 * source. A final message stored meanwhile is copied as it is.
 */
export async function forkSession(
  db: Db,
  source: SessionRow,
  ownerId: string,
  answer?: ForkedAnswer,
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
        // Positions are copied too, so the summary covers the same messages in the fork: its
        // first turn sends what the source's next turn would, without summarising again.
        contextSummary: source.contextSummary,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const forkId = (fork as SessionRow).id;
    // Checked before the messages are read, and held: they are then read as the turn left them.
    const running =
      answer && (await turnHolds(tx, { sessionId: source.id, turnId: answer.turnId }))
        ? answer
        : undefined;
    const stored = await tx
      .select()
      .from(messages)
      .where(eq(messages.sessionId, source.id))
      .orderBy(asc(messages.position));
    const sourceMessages = withAnswer(stored, running && answerAsRow(running, stored));
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
