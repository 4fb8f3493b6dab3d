import { and, asc, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { newId } from '../ids';
import type { Db } from './client';
import { columnName as column } from './column-name';
import { type HeldTurn, type MessageRow, messages, sessions, widgetStates } from './schema';
import { storable } from './storable';

export type NewMessage = Pick<MessageRow, 'role' | 'parts'> &
  Partial<Pick<MessageRow, 'id' | 'metadata'>>;

/** A message written under an id its writer chose. */
export type IdentifiedMessage = Required<Pick<NewMessage, 'id'>> & NewMessage;

/** The session's messages in order, from `position` `from` on. */
export async function listMessages(db: Db, sessionId: string, from = 0): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.sessionId, sessionId), gte(messages.position, from)))
    .orderBy(asc(messages.position));
}

/**
 * A page of the session's messages, oldest first: the last `limit` of them (all when no limit),
 * or of those before the session's message `before` (none when it has no such message);
 * `hasEarlier` when older ones remain.
 */
export async function listMessagePage(
  db: Db,
  sessionId: string,
  { before, limit }: { before?: string; limit?: number },
): Promise<{ rows: MessageRow[]; hasEarlier: boolean }> {
  // The position of `before` is read in the same statement: a page is one round trip.
  const positionOf = (id: string) =>
    db
      .select({ position: messages.position })
      .from(messages)
      .where(and(eq(messages.id, id), eq(messages.sessionId, sessionId)));
  const newestFirst = db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.sessionId, sessionId),
        before === undefined ? undefined : lt(messages.position, positionOf(before)),
      ),
    )
    .orderBy(desc(messages.position))
    .$dynamic();
  // One more than asked tells whether older ones remain.
  const rows = await (limit === undefined ? newestFirst : newestFirst.limit(limit + 1));
  const hasEarlier = limit !== undefined && rows.length > limit;
  return { rows: rows.slice(0, limit).reverse(), hasEarlier };
}

/** The position of the session's message `id`, if it has one. */
export async function messagePosition(
  db: Db,
  sessionId: string,
  id: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ position: messages.position })
    .from(messages)
    .where(and(eq(messages.id, id), eq(messages.sessionId, sessionId)));
  return row?.position;
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
 * Deletes the session's messages from `position` on, the widgets they opened (a session-wide
 * widget stays) and a context summary of any of them: the start of an edit or a regenerate.
 * One statement, so one round trip.
 */
export async function truncateMessages(db: Db, sessionId: string, position: number): Promise<void> {
  await db.execute(sql`
    with dropped as (
      delete from ${messages}
      where ${messages.sessionId} = ${sessionId} and ${messages.position} >= ${position}
      returning ${messages.parts}
    ), forgotten as (
      update ${sessions} set ${column(sessions.contextSummary)} = null
      where ${sessions.id} = ${sessionId}
        and (${sessions.contextSummary} ->> 'through')::integer > ${position}
    )
    delete from ${widgetStates}
    where ${widgetStates.sessionId} = ${sessionId} and ${widgetStates.toolCallId} in (
      select part ->> 'toolCallId' from dropped, jsonb_array_elements(dropped.parts) as part
    )`);
}

/** A message that goes at a position the caller knows is free (it holds the session's turn). */
export type PlacedMessage = IdentifiedMessage & { position: number };

const row = (sessionId: string, message: PlacedMessage) => ({
  id: message.id,
  sessionId,
  position: message.position,
  role: message.role,
  parts: storable(message.parts),
  metadata: storable(message.metadata ?? null),
});

/** Stores a new message (made storable); undefined when its id is taken (ids are global keys). */
export async function insertMessage(
  db: Db,
  sessionId: string,
  message: PlacedMessage,
): Promise<MessageRow | undefined> {
  const [inserted] = await db
    .insert(messages)
    .values(row(sessionId, message))
    .onConflictDoNothing({ target: messages.id })
    .returning();
  return inserted;
}

/**
 * A turn's answer: stored the first time, its parts and metadata replaced after (made storable),
 * only while `turnId` holds the session's turn mark. False when it was not stored: the mark is
 * another's or none (the turn was closed as dead, from here or another instance), the session is
 * gone, or the id is another session's message. One statement, so a save costs a round trip.
 */
export async function saveTurnAnswer(
  db: Db,
  { sessionId, turnId }: HeldTurn,
  message: PlacedMessage,
): Promise<boolean> {
  const { id, position, role, parts, metadata } = row(sessionId, message);
  // The session's row is locked as the revision trigger would lock it, before the message's:
  // a release that commits meanwhile is seen, and writers of one session take the two in one
  // order. A late save of a turn closed as dead would otherwise put its answer back at its
  // position, after an edit that deleted it, leaving a gap (docs/DESIGN.md).
  const result = await db.execute(sql`
    insert into ${messages} (${column(messages.id)}, ${column(messages.sessionId)},
      ${column(messages.position)}, ${column(messages.role)}, ${column(messages.parts)},
      ${column(messages.metadata)})
    select ${id}, ${sessions.id}, ${position}, ${role}, ${JSON.stringify(parts)}::jsonb,
      ${metadata === null ? null : JSON.stringify(metadata)}::jsonb
    from ${sessions}
    where ${sessions.id} = ${sessionId} and ${sessions.activeTurnId} = ${turnId}
    for no key update
    on conflict (${column(messages.id)}) do update
    set ${column(messages.parts)} = excluded.${column(messages.parts)},
      ${column(messages.metadata)} = excluded.${column(messages.metadata)}
    where ${messages.sessionId} = ${sessionId}
    returning ${messages.id}`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
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

/**
 * Whether the session holds message `id` as a turn's end saved it: a status other than
 * `streaming`, which a step's save gives an answer still being written.
 */
export async function isFinalAnswer(tx: Db, sessionId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.id, id),
        eq(messages.sessionId, sessionId),
        sql`${messages.metadata}->>'status' <> 'streaming'`,
      ),
    );
  return row !== undefined;
}

/**
 * Stores a message under its id: its parts and metadata replaced if the session has it, appended
 * otherwise; made storable (lib/db/storable) either way. The caller's transaction holds the
 * session's row (`for update`): every message write takes that row, in the trigger that stamps
 * it (migration 0006), an insert before the message's and an update after. A writer that took the
 * message's first could deadlock with a turn still saving the same one.
 */
export async function replaceOrAppend(
  tx: Db,
  sessionId: string,
  message: IdentifiedMessage,
): Promise<void> {
  const updated = await tx
    .update(messages)
    .set({ parts: storable(message.parts), metadata: storable(message.metadata ?? null) })
    .where(and(eq(messages.id, message.id), eq(messages.sessionId, sessionId)))
    .returning({ id: messages.id });
  if (updated.length === 0) await appendMessages(tx, sessionId, [message]);
}
