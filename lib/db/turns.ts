import {
  and,
  eq,
  getTableColumns,
  getTableName,
  isNull,
  type SQL,
  sql,
  type Table,
} from 'drizzle-orm';
import type { QuantaMessage } from '../protocol';
import type { Db } from './client';
import { columnName as column } from './column-name';
import { type IdentifiedMessage, isFinalAnswer, replaceOrAppend } from './messages';
import { type HeldTurn, type MessageRow, messages, type SessionRow, sessions } from './schema';
import { DEFAULT_TITLE } from './sessions';
import { storable } from './storable';

// A session's turn mark: the id of the turn running on it and when it last renewed the mark, so
// one turn at a time runs per session, across instances.

/** What a claim needs: whose request it is, and the title an unnamed, empty session takes. */
export type Claim = HeldTurn & { ownerId: string; title?: string };

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
  const [claimed] = await db
    .update(sessions)
    .set({ activeTurnId: turnId, activeTurnStartedAt: now, updatedAt: now, title: named(title) })
    .where(claimable(sessionId, ownerId))
    .returning();
  return claimed;
}

/** The session, if it is `ownerId`'s and no turn holds it. */
function claimable(sessionId: string, ownerId: string): SQL | undefined {
  return and(
    eq(sessions.id, sessionId),
    eq(sessions.ownerId, ownerId),
    isNull(sessions.activeTurnId),
  );
}

/** The session's title after a claim: `title` if it is unnamed and has no messages yet. */
function named(title: string | undefined): SQL | typeof sessions.title {
  return title === undefined
    ? sessions.title
    : sql`case when ${sessions.title} = ${DEFAULT_TITLE} and not exists (select 1 from ${messages} where ${messages.sessionId} = ${sessions.id}) then ${title} else ${sessions.title} end`;
}

/** A session claimed for a new prompt: the messages after its context summary, and the prompt. */
export type PromptClaimed = {
  /** As the claim left it: its `messageRevision` is from before the prompt was stored. */
  session: SessionRow;
  /**
   * Of the stored messages from the summary's `through` on, those written after the revision
   * the caller holds (all of them when it holds none).
   */
  changed: MessageRow[];
  /** How many stored messages there are from the summary's `through` on. */
  historyCount: number;
  /** The prompt, stored after them; undefined when its id was taken (ids are global keys). */
  prompt: MessageRow | undefined;
  /** The prompt's position, after every stored message: where it goes if stored anew. */
  position: number;
};

/**
 * `claimTurn` for a new prompt, which also reads the messages of the history the model gets
 * written after revision `since` (lib/sessions/history-cache holds the rest; -1 reads them all)
 * and stores the prompt after the last message: one statement, so a submit reaches its model
 * after two round trips (this and who asks). Undefined when the claim fails, and then nothing
 * was stored.
 */
export async function claimTurnForPrompt(
  db: Db,
  { sessionId, ownerId, turnId, title }: Claim,
  prompt: { id: string; parts: QuantaMessage['parts'] },
  since = -1,
): Promise<PromptClaimed | undefined> {
  const now = new Date().toISOString();
  const inHistory = sql`${messages.sessionId} = ${sessionId} and ${messages.position}
    >= coalesce((claimed.${column(sessions.contextSummary)} ->> 'through')::integer, 0)`;
  // Each part of the statement sees the tables as they were when it began: the history does not
  // hold the prompt. That is the history the turn answers only because every writer of a
  // session's messages holds its turn mark, as this statement takes it. The reads name the
  // session by its id rather than by the claimed row: joined to that row, the planner read every
  // message of the session for the last position and again for the changed rows, where the
  // indexes give those alone. The history's length is still counted, once.
  const result = await db.execute(sql`
    with claimed as (
      update ${sessions}
      set ${column(sessions.activeTurnId)} = ${turnId},
        ${column(sessions.activeTurnStartedAt)} = ${now},
        ${column(sessions.updatedAt)} = ${now},
        ${column(sessions.title)} = ${named(title)}
      where ${claimable(sessionId, ownerId)}
      returning *
    ), changed as (
      select ${messages}.* from ${messages}, claimed where ${inHistory} and ${messages.revision} > ${since}
    ), next as (
      select coalesce(max(${messages.position}), -1) + 1 as position
      from ${messages} where ${messages.sessionId} = ${sessionId}
    ), added as (
      insert into ${messages} (${column(messages.id)}, ${column(messages.sessionId)},
        ${column(messages.position)}, ${column(messages.role)}, ${column(messages.parts)})
      select ${prompt.id}, claimed.${column(sessions.id)}, next.position, 'user',
        ${JSON.stringify(storable(prompt.parts))}::jsonb
      from claimed, next
      on conflict (${column(messages.id)}) do nothing
      returning *
    )
    select (select to_json(claimed) from claimed) as session,
      -- json, not jsonb: the stored jsonb is written out once, where building one jsonb of the
      -- whole history first took PGlite more than twice as long (bench/README.md).
      (select coalesce(json_agg(changed order by changed.position), '[]'::json)
        from changed) as changed,
      (select count(*) from ${messages}, claimed where ${inHistory}) as history_count,
      (select to_json(added) from added) as prompt,
      (select position from next) as position`);
  const [row] = (
    result as unknown as {
      rows: {
        session: unknown;
        changed: unknown[];
        history_count: number | string;
        prompt: unknown;
        position: number;
      }[];
    }
  ).rows;
  if (!row?.session) return undefined;
  return {
    session: fromJson<SessionRow>(sessions, row.session),
    changed: row.changed.map((message) => fromJson<MessageRow>(messages, message)),
    historyCount: Number(row.history_count),
    prompt: row.prompt ? fromJson<MessageRow>(messages, row.prompt) : undefined,
    position: Number(row.position),
  };
}

/** A table's row as `to_json` gives it (column names, timestamps as text) as Drizzle's. */
function fromJson<Row>(table: Table, json: unknown): Row {
  const columns = json as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = columns[column.name];
      // A column the statement did not return is a statement out of step with the schema.
      if (value === undefined)
        throw new Error(`No ${column.name} in a ${getTableName(table)} row.`);
      return [key, value === null ? null : column.mapFromDriverValue(value)];
    }),
  ) as Row;
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

/**
 * Closes `turnId` for a turn that no longer runs: stores `answer` (if any) under its id and clears
 * the mark, in one transaction that holds the session's row, only if the mark is still the
 * turn's. False when it is not (the turn ended, or another instance closed it first): then
 * nothing is written. Two steps would let a turn that still ran save between them, over the
 * answer stored, and a second closer store the answer again after an edit deleted it.
 */
export async function closeTurn(
  db: Db,
  { sessionId, turnId }: HeldTurn,
  answer: IdentifiedMessage | undefined,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [held] = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.activeTurnId, turnId)))
      .for('update');
    if (!held) return false;
    // A final answer stored by a turn whose release was then lost (a database failing, a server
    // dying in between) is the whole of it; the log may hold less (see `turnRecorder`).
    if (answer && !(await isFinalAnswer(tx, sessionId, answer.id))) {
      await replaceOrAppend(tx, sessionId, answer);
    }
    await releaseTurn(tx, sessionId, turnId);
    return true;
  });
}
