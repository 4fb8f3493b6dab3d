import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { emptyPostgresDatabase, type OwnDatabase } from '@/tests/helpers/postgres';
import { type Database, openDatabase } from './client';
import {
  appendMessages,
  insertMessage,
  listMessages,
  saveTurnAnswer,
  truncateMessages,
} from './messages';
import type { MessageRow } from './schema';
import { createSession, deleteSession, getSession } from './sessions';
import { claimTurn, closeTurn, releaseTurn } from './turns';
import { listWidgetStatesOf, writeWidgetState } from './widget-states';

describeEachDatabase('message queries', (database) => {
  const db = () => database().db;

  it('appends messages in order and deletes a session with its messages', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    await appendMessages(db(), session.id, [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
    ]);
    await appendMessages(db(), session.id, [
      {
        role: 'assistant',
        parts: [{ type: 'text', text: 'hello' }],
        metadata: { usage: { inputTokens: 3, outputTokens: 1 } },
      },
      { role: 'user', parts: [{ type: 'text', text: 'again' }] },
    ]);
    const stored = await listMessages(db(), session.id);
    expect(stored.map((m) => [m.position, m.role, m.parts])).toEqual([
      [0, 'user', [{ type: 'text', text: 'hi' }]],
      [1, 'assistant', [{ type: 'text', text: 'hello' }]],
      [2, 'user', [{ type: 'text', text: 'again' }]],
    ]);
    expect(stored[1]?.metadata).toEqual({ usage: { inputTokens: 3, outputTokens: 1 } });

    expect(await deleteSession(db(), session.id)).toBe(true);
    expect(await getSession(db(), session.id)).toBeUndefined();
    expect(await listMessages(db(), session.id)).toEqual([]);
    expect(await deleteSession(db(), session.id)).toBe(false);
  });

  it('inserts a message at its place unless its id is taken', async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    const other = await createSession(db(), { ownerId: 'owner-b' });
    const prompt = { id: 'prompt-1', position: 0, role: 'user' as const, parts: [] };
    expect(await insertMessage(db(), id, prompt)).toMatchObject({ id: 'prompt-1', position: 0 });
    expect(await insertMessage(db(), other.id, prompt)).toBeUndefined();
    expect(await listMessages(db(), other.id)).toEqual([]);
  });

  it("saves a turn's answer: stored the first time, replaced after, never another session's", async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    const turn = { sessionId: id, turnId: 'turn-1' };
    await claimTurn(db(), { ...turn, ownerId: 'owner-a' });
    const answer = { id: 'answer-2', position: 0, role: 'assistant' as const, parts: [] };
    expect(await saveTurnAnswer(db(), turn, answer)).toBe(true);
    const text = [{ type: 'text' as const, text: 'Done.' }];
    const done = { ...answer, parts: text, metadata: { status: 'complete' as const } };
    expect(await saveTurnAnswer(db(), turn, done)).toBe(true);
    const stored = async (sessionId: string) =>
      (await listMessages(db(), sessionId)).map(({ id, position, parts, metadata }) => ({
        id,
        position,
        parts,
        metadata,
      }));
    expect(await stored(id)).toEqual([
      { id: 'answer-2', position: 0, parts: text, metadata: { status: 'complete' } },
    ]);
    const other = await createSession(db(), { ownerId: 'owner-b' });
    const otherTurn = { sessionId: other.id, turnId: 'turn-2' };
    await claimTurn(db(), { ...otherTurn, ownerId: 'owner-b' });
    expect(await saveTurnAnswer(db(), otherTurn, { ...answer, parts: [] })).toBe(false);
    expect(await listMessages(db(), other.id)).toEqual([]);
    expect((await listMessages(db(), id))[0]?.parts).toEqual(text);
  });

  it("saves a turn's answer only while the turn holds the session", async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    const turn = { sessionId: id, turnId: 'turn-1' };
    await claimTurn(db(), { ...turn, ownerId: 'owner-a' });
    await appendMessages(db(), id, [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }]);
    const answer = { id: 'answer-3', position: 1, role: 'assistant' as const, parts: [] };
    expect(await saveTurnAnswer(db(), turn, answer)).toBe(true);
    // Closed as dead while it still ran: the mark is freed, and an edit deletes the answer.
    await releaseTurn(db(), id, turn.turnId);
    await truncateMessages(db(), id, 0);
    const late = { ...answer, parts: [{ type: 'text' as const, text: 'Late.' }] };
    expect(await saveTurnAnswer(db(), turn, late)).toBe(false);
    // Nor once another turn holds the session.
    await claimTurn(db(), { sessionId: id, ownerId: 'owner-a', turnId: 'turn-2' });
    expect(await saveTurnAnswer(db(), turn, late)).toBe(false);
    expect(await listMessages(db(), id)).toEqual([]);
    // A session gone is no error: there is nothing to save the answer to.
    await deleteSession(db(), id);
    expect(await saveTurnAnswer(db(), { ...turn, turnId: 'turn-2' }, late)).toBe(false);
  });

  it('truncates from a position, with the widgets those messages opened', async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    const call = (toolCallId: string) => ({
      type: 'tool-counter',
      toolCallId,
      state: 'output-available',
      input: {},
      output: 'ok',
    });
    await appendMessages(db(), id, [
      { role: 'user', parts: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', parts: [call('kept')] as never },
      { role: 'user', parts: [{ type: 'text', text: 'two' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'hm' }, call('dropped')] as never },
    ]);
    for (const toolCallId of ['kept', 'dropped', 'session:counter']) {
      await writeWidgetState(db(), {
        sessionId: id,
        key: toolCallId,
        widgetId: 'counter',
        data: { count: 1 },
        version: 0,
      });
    }
    await truncateMessages(db(), id, 2);
    expect((await listMessages(db(), id)).map(({ position }) => position)).toEqual([0, 1]);
    expect(
      (await listWidgetStatesOf(db(), id, ['kept', 'dropped']))
        .map(({ toolCallId }) => toolCallId)
        .sort(),
    ).toEqual(['kept', 'session:counter']);
  });
});

// Two connections at once: PGlite has one.
describe.skipIf(!process.env.DATABASE_URL)('closing a turn on PostgreSQL', () => {
  let own: OwnDatabase;
  let database: Database;
  const clients: pg.Client[] = [];
  beforeAll(async () => {
    own = await emptyPostgresDatabase();
    database = await openDatabase({ url: own.url });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await database?.close();
    await own?.drop();
  });
  const connect = async () => {
    const client = new pg.Client(own.url);
    clients.push(client);
    await client.connect();
    return client;
  };

  it("closes a dead turn taking the session's row before the message's, as an insert does", async () => {
    const session = await createSession(database.db, { ownerId: 'owner-a' });
    const turn = { sessionId: session.id, turnId: 'turn-1' };
    await claimTurn(database.db, { ...turn, ownerId: 'owner-a' });
    const [stored] = await appendMessages(database.db, session.id, [
      { role: 'assistant', parts: [{ type: 'text', text: 'so far' }] },
    ]);
    const holder = await connect();
    await holder.query('begin');
    await holder.query('select 1 from sessions where id = $1 for update', [session.id]);
    const saved = closeTurn(database.db, turn, {
      ...(stored as MessageRow),
      parts: [{ type: 'text', text: 'closed' }],
    });
    // Waiting for the session's row...
    for (;;) {
      const { rows } = await holder.query(
        "select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
      );
      if (rows[0].waiting > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // ...and not holding the message's meanwhile.
    const probe = await connect();
    await probe.query('begin');
    await probe.query('select 1 from messages where id = $1 for update nowait', [stored?.id]);
    await probe.query('rollback');
    await holder.query('rollback');
    await saved;
    expect((await listMessages(database.db, session.id))[0]?.parts).toEqual([
      { type: 'text', text: 'closed' },
    ]);
  });
});
