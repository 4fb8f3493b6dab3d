import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { newId } from '../ids';
import type { Db } from './client';
import { type MessageRow, messages, sessions, widgetStates } from './schema';
import { storable } from './storable';

export type NewMessage = Pick<MessageRow, 'role' | 'parts'> &
  Partial<Pick<MessageRow, 'id' | 'metadata'>>;

export async function listMessages(db: Db, sessionId: string): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(eq(messages.sessionId, sessionId))
    .orderBy(asc(messages.position));
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

/** Replaces a stored message's parts and metadata (made storable); false when it is not there. */
export async function replaceMessage(
  db: Db,
  sessionId: string,
  message: Required<Pick<NewMessage, 'id'>> & NewMessage,
): Promise<boolean> {
  const updated = await db
    .update(messages)
    .set({ parts: storable(message.parts), metadata: storable(message.metadata ?? null) })
    .where(and(eq(messages.id, message.id), eq(messages.sessionId, sessionId)))
    .returning({ id: messages.id });
  return updated.length > 0;
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
  if (!(await replaceMessage(db, sessionId, message)))
    await appendMessages(db, sessionId, [message]);
}
