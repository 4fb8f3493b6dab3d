import type { UIMessageChunk } from 'ai';
import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ContextSummary } from '../agent/compaction';
import type { MessageMetadata, QuantaMessage } from '../protocol';

export const visibility = pgEnum('visibility', ['private', 'public']);
export const role = pgEnum('message_role', ['system', 'user', 'assistant']);

const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    title: text('title').notNull(),
    model: text('model'),
    visibility: visibility('visibility').notNull().default('private'),
    /** Set while a turn runs (the turn's id), so a second prompt can be refused. */
    activeTurnId: text('active_turn_id'),
    activeTurnStartedAt: timestamp('active_turn_started_at', { withTimezone: true, mode: 'date' }),
    /** What the model gets instead of the messages before `through` (see lib/agent/compaction). */
    contextSummary: jsonb('context_summary').$type<ContextSummary>(),
    /** Counts the writes to the session's messages; each written message takes the new count. */
    messageRevision: integer('message_revision').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('sessions_owner_updated_idx').on(table.ownerId, table.updatedAt.desc(), table.id),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    role: role('role').notNull(),
    /** The AI SDK UIMessage parts. */
    parts: jsonb('parts').notNull().$type<QuantaMessage['parts']>(),
    /** Usage, model, and whatever else the turn records about this message. */
    metadata: jsonb('metadata').$type<MessageMetadata>(),
    /**
     * The session's `messageRevision` when this row was last written, set by the database
     * (migration 0006's trigger): what an instance's copy of a history asks for the rows changed after.
     */
    revision: integer('revision').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [
    unique('messages_session_position_key').on(table.sessionId, table.position),
    // A turn's claim asks for the rows written since the copy of the history it holds: the
    // newest few, found without reading the rest (lib/db/turns).
    index('messages_session_revision_idx').on(table.sessionId, table.revision),
  ],
);

/**
 * A running turn's UI message chunks, in order, in batches: `seq` is the turn-wide index of the
 * batch's first chunk. What resumes a turn's stream on any instance, and what rebuilds its
 * answer when its server died; removed once the turn has ended and been stored.
 */
export const turnChunks = pgTable(
  'turn_chunks',
  {
    turnId: text('turn_id').notNull(),
    seq: integer('seq').notNull(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    chunks: jsonb('chunks').notNull().$type<UIMessageChunk[]>(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.turnId, table.seq] }),
    index('turn_chunks_session_idx').on(table.sessionId),
  ],
);

/** A widget's latest data per tool call; `version` guards concurrent actions. */
export const widgetStates = pgTable(
  'widget_states',
  {
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    toolCallId: text('tool_call_id').notNull(),
    widgetId: text('widget_id').notNull(),
    data: jsonb('data').$type<unknown>(),
    version: integer('version').notNull().default(1),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.sessionId, table.toolCallId] })],
);

/** Notes kept on a session (the `save_note` tool), listed oldest first. */
export const notes = pgTable(
  'notes',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('notes_session_created_idx').on(table.sessionId, table.createdAt)],
);

/**
 * The generation of an owner's identity cookie, raised by each rotation so that every earlier
 * cookie stops working. An owner with no row is at generation 0 (cookies from before rotation).
 */
export const identities = pgTable('identities', {
  ownerId: text('owner_id').primaryKey(),
  generation: integer('generation').notNull(),
  rotatedAt: timestamp('rotated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** An owner's API tokens, kept only as the SHA-256 of the token; revoking deletes the row. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('api_tokens_token_hash_idx').on(table.tokenHash),
    index('api_tokens_owner_created_idx').on(table.ownerId, table.createdAt),
  ],
);

export type NoteRow = typeof notes.$inferSelect;
export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type WidgetStateRow = typeof widgetStates.$inferSelect;

/** A turn on its session (`sessions.active_turn_id`): what every write under its mark names. */
export type HeldTurn = { sessionId: string; turnId: string };
