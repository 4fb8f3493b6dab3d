import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { emptyPostgresDatabase } from '@/tests/helpers/postgres';
import { newId } from '../ids';
import { openDatabase } from './client';
import { appendMessages, listMessages } from './messages';
import journal from './migrations/meta/_journal.json';
import { addNote, listNotes } from './notes';
import { messages, widgetStates } from './schema';
import {
  createSession,
  DEFAULT_TITLE,
  deleteSession,
  forkSession,
  getSession,
  listSessions,
  storeContextSummary,
  updateSession,
} from './sessions';
import { claimTurn, releaseTurn } from './turns';

describeEachDatabase('session queries', (database) => {
  const db = () => database().db;
  /** A summary kept as a turn keeps it: while the turn holds the session. */
  const keepSummary = async (
    { id, ownerId }: { id: string; ownerId: string },
    summary: { text: string; through: number },
  ) => {
    const turnId = newId();
    await claimTurn(db(), { sessionId: id, ownerId, turnId });
    expect(await storeContextSummary(db(), { sessionId: id, turnId }, summary)).toBe(true);
    await releaseTurn(db(), id, turnId);
  };

  it('creates a private session with an unguessable id', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    expect(session).toMatchObject({
      ownerId: 'owner-a',
      title: DEFAULT_TITLE,
      visibility: 'private',
      model: null,
    });
    expect(session.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await getSession(db(), session.id)).toEqual(session);
  });

  it('returns nothing for an unknown id', async () => {
    expect(await getSession(db(), newId())).toBeUndefined();
  });

  it('lists only my sessions, newest first, a page at a time', async () => {
    const owner = newId();
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(await createSession(db(), { ownerId: owner, title: `s${i}` }));
      // Distinct milliseconds, so "newest first" has one answer (ties are the next test's).
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await createSession(db(), { ownerId: 'someone-else' });
    // Touching the oldest moves it to the top.
    await updateSession(db(), (created[0] as { id: string }).id, { title: 's0 renamed' });

    const first = await listSessions(db(), owner, { limit: 2 });
    expect(first.sessions.map((s) => s.title)).toEqual(['s0 renamed', 's4']);
    const second = await listSessions(db(), owner, { limit: 2, after: first.next });
    expect(second.sessions.map((s) => s.title)).toEqual(['s3', 's2']);
    const third = await listSessions(db(), owner, { limit: 2, after: second.next });
    expect(third.sessions.map((s) => s.title)).toEqual(['s1']);
    expect(third.next).toBeUndefined();
  });

  it("lists a session's title and state, not its summary for the model", async () => {
    const owner = newId();
    const session = await createSession(db(), { ownerId: owner, title: 'Long one' });
    const text = 'Earlier, at length. '.repeat(800);
    await keepSummary(session, { text, through: 40 });
    expect((await getSession(db(), session.id))?.contextSummary).toEqual({ text, through: 40 });

    const [listed] = (await listSessions(db(), owner, { limit: 10 })).sessions;
    expect(listed).toEqual({
      id: session.id,
      ownerId: owner,
      title: 'Long one',
      model: null,
      visibility: 'private',
      createdAt: session.createdAt,
      updatedAt: expect.any(Date),
      activeTurnId: null,
      activeTurnStartedAt: null,
    });
  });

  it('pages correctly through sessions updated in the same millisecond', async () => {
    const owner = newId();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push((await createSession(db(), { ownerId: owner })).id);
    const seen: string[] = [];
    let after: Parameters<typeof listSessions>[2]['after'];
    do {
      const page = await listSessions(db(), owner, { limit: 1, after });
      seen.push(...page.sessions.map((s) => s.id));
      after = page.next;
    } while (after);
    expect(seen.sort()).toEqual(ids.sort());
  });

  it('renames, changes the model and the visibility', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const updated = await updateSession(db(), session.id, {
      title: 'Plans',
      model: 'demo',
      visibility: 'public',
    });
    expect(updated).toMatchObject({ title: 'Plans', model: 'demo', visibility: 'public' });
    expect(updated?.updatedAt.getTime()).toBeGreaterThanOrEqual(session.updatedAt.getTime());
    expect(await updateSession(db(), newId(), { title: 'x' })).toBeUndefined();
  });

  it('forks a session into a new private one with copies of its messages and widget states', async () => {
    const source = await createSession(db(), {
      ownerId: 'owner-a',
      title: 'Shared',
      model: 'demo',
    });
    await updateSession(db(), source.id, { visibility: 'public' });
    await appendMessages(db(), source.id, [
      { role: 'user', parts: [{ type: 'text', text: 'count' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
    ]);
    await db()
      .insert(widgetStates)
      .values({
        sessionId: source.id,
        toolCallId: 'call-1',
        widgetId: 'counter',
        data: { count: 4 },
        version: 7,
      });

    const fork = await forkSession(db(), (await getSession(db(), source.id)) as never, 'owner-b');
    expect(fork).toMatchObject({
      ownerId: 'owner-b',
      title: 'Shared',
      model: 'demo',
      visibility: 'private',
    });
    expect(fork.id).not.toBe(source.id);
    const copied = await listMessages(db(), fork.id);
    expect(copied.map((m) => m.parts)).toEqual([
      [{ type: 'text', text: 'count' }],
      [{ type: 'text', text: 'done' }],
    ]);
    const original = await listMessages(db(), source.id);
    expect(copied.map((m) => m.id)).not.toEqual(original.map((m) => m.id));
    const { eq } = await import('drizzle-orm');
    const states = await db()
      .select()
      .from(widgetStates)
      .where(eq(widgetStates.sessionId, fork.id));
    expect(states).toEqual([
      expect.objectContaining({ toolCallId: 'call-1', data: { count: 4 }, version: 1 }),
    ]);

    // The fork is independent: deleting the source keeps it.
    await deleteSession(db(), source.id);
    expect(await listMessages(db(), fork.id)).toHaveLength(2);
  });

  it('forks a running turn’s answer so far only while that turn holds the source', async () => {
    const source = await createSession(db(), { ownerId: 'owner-a' });
    const [, step] = await appendMessages(db(), source.id, [
      { role: 'user', parts: [{ type: 'text', text: 'count' }] },
      { role: 'assistant', parts: [], metadata: { status: 'streaming' } },
    ]);
    const turnId = newId();
    await claimTurn(db(), { sessionId: source.id, ownerId: 'owner-a', turnId });
    const answer = (text: string) => ({
      turnId,
      id: step?.id as string,
      parts: [{ type: 'text' as const, text, state: 'done' as const }],
      metadata: { status: 'stopped' as const },
    });
    const forkedText = async (forked: { id: string }) =>
      (await listMessages(db(), forked.id)).map((message) => message.parts);
    const held = (await getSession(db(), source.id)) as never;
    // In place of the step's save, while the turn runs.
    expect(await forkedText(await forkSession(db(), held, 'owner-b', answer('1, 2')))).toEqual([
      [{ type: 'text', text: 'count' }],
      [{ type: 'text', text: '1, 2', state: 'done' }],
    ]);
    // Its final message stored meanwhile is copied as it is.
    await db()
      .update(messages)
      .set({ parts: [{ type: 'text', text: '1, 2, 3' }], metadata: { status: 'complete' } })
      .where(eq(messages.id, step?.id as string));
    expect(await forkedText(await forkSession(db(), held, 'owner-b', answer('1, 2')))).toEqual([
      [{ type: 'text', text: 'count' }],
      [{ type: 'text', text: '1, 2, 3' }],
    ]);
    // Ended and released, with a new prompt after it: the answer read before is not copied.
    await releaseTurn(db(), source.id, turnId);
    await appendMessages(db(), source.id, [
      { role: 'user', parts: [{ type: 'text', text: 'more' }] },
    ]);
    expect(await forkedText(await forkSession(db(), held, 'owner-b', answer('1, 2')))).toEqual([
      [{ type: 'text', text: 'count' }],
      [{ type: 'text', text: '1, 2, 3' }],
      [{ type: 'text', text: 'more' }],
    ]);
  });

  it('forks a session with copies of its notes, in the order they were taken', async () => {
    const source = await createSession(db(), { ownerId: 'owner-a' });
    for (const text of ['first', 'second', 'third', 'fourth']) {
      await addNote(db(), source.id, text);
      // Distinct milliseconds: PGlite's clock has no finer ones, so the order has one answer.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }

    const fork = await forkSession(db(), source, 'owner-b');
    const copied = await listNotes(db(), fork.id);
    const original = await listNotes(db(), source.id);
    expect(copied.map((note) => note.text)).toEqual(['first', 'second', 'third', 'fourth']);
    expect(copied.map((note) => note.createdAt)).toEqual(original.map((note) => note.createdAt));
    expect(copied.every((note) => note.sessionId === fork.id)).toBe(true);
    expect(copied.map((note) => note.id)).not.toEqual(original.map((note) => note.id));

    // A note taken after the fork belongs to one session only.
    await addNote(db(), fork.id, 'only in the fork');
    await deleteSession(db(), source.id);
    expect(await listNotes(db(), fork.id)).toHaveLength(5);
  });
  it('forks a session with the model’s summary of its earlier messages', async () => {
    const source = await createSession(db(), { ownerId: 'owner-a' });
    await appendMessages(
      db(),
      source.id,
      ['one', 'two', 'three'].map((text) => ({ role: 'user', parts: [{ type: 'text', text }] })),
    );
    await keepSummary(source, { text: 'They counted to two.', through: 2 });

    const fork = await forkSession(db(), (await getSession(db(), source.id)) as never, 'owner-b');
    expect((await getSession(db(), fork.id))?.contextSummary).toEqual({
      text: 'They counted to two.',
      through: 2,
    });
    // `through` is a position: the fork's messages keep the source's.
    expect((await listMessages(db(), fork.id)).map((m) => m.position)).toEqual(
      (await listMessages(db(), source.id)).map((m) => m.position),
    );
  });
});

describe('data survives a restart (PGlite)', () => {
  it('reopens the same folder with every session and message', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = mkdtempSync(join(tmpdir(), 'quanta-restart-'));
    const first = await openDatabase({ directory });
    const session = await createSession(first.db, { ownerId: 'owner-a', title: 'Kept' });
    await appendMessages(first.db, session.id, [
      { role: 'user', parts: [{ type: 'text', text: 'still here' }] },
    ]);
    await first.close();

    const second = await openDatabase({ directory });
    expect(await getSession(second.db, session.id)).toMatchObject({ title: 'Kept' });
    expect((await listMessages(second.db, session.id)).map((m) => m.parts)).toEqual([
      [{ type: 'text', text: 'still here' }],
    ]);
    await second.close();
    // Two cold PGlite starts (WASM, migrations): seconds on a busy two-core machine.
  }, 30_000);
});

describe.skipIf(!process.env.DATABASE_URL)('migrations (PostgreSQL)', () => {
  it('run once, without error, when two instances start together on an empty database', async () => {
    const empty = await emptyPostgresDatabase();
    const [a, b] = await Promise.all([
      openDatabase({ url: empty.url }),
      openDatabase({ url: empty.url }),
    ]);
    const result = await a.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    );
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([
      { n: journal.entries.length },
    ]);
    // Both instances see the same schema.
    const session = await createSession(a.db, { ownerId: 'owner-a' });
    expect(await getSession(b.db, session.id)).toEqual(session);
    await Promise.all([a.close(), b.close()]);
    await empty.drop();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL connection closed by the server', () => {
  it('is logged, not fatal, and the next query opens a new one', async () => {
    const empty = await emptyPostgresDatabase();
    const database = await openDatabase({ url: empty.url });
    await createSession(database.db, { ownerId: 'owner-a' });
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Close every idle connection of the app's pool, as a server restart would.
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
      [new URL(empty.url).pathname.slice(1)],
    );
    await admin.end();
    await vi.waitFor(() => expect(logged).toHaveBeenCalled());
    expect(await createSession(database.db, { ownerId: 'owner-a' })).toMatchObject({
      ownerId: 'owner-a',
    });
    logged.mockRestore();
    await database.close();
    await empty.drop();
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a fork of a running turn on PostgreSQL', () => {
  it('waits for the turn’s save in flight, then copies what it stored', async () => {
    const empty = await emptyPostgresDatabase();
    const database = await openDatabase({ url: empty.url });
    const { default: pg } = await import('pg');
    const turn = new pg.Client({ connectionString: empty.url });
    await turn.connect();
    try {
      const source = await createSession(database.db, { ownerId: 'owner-a' });
      const [, step] = await appendMessages(database.db, source.id, [
        { role: 'user', parts: [{ type: 'text', text: 'count' }] },
        { role: 'assistant', parts: [], metadata: { status: 'streaming' } },
      ]);
      const turnId = newId();
      await claimTurn(database.db, { sessionId: source.id, ownerId: 'owner-a', turnId });
      // The turn's final save and release, under way: the session's row taken as they take it.
      await turn.query('begin');
      await turn.query('select 1 from sessions where id = $1 for no key update', [source.id]);
      const forked = forkSession(database.db, source, 'owner-b', {
        turnId,
        id: step?.id as string,
        parts: [{ type: 'text', text: '1, 2', state: 'done' }],
        metadata: { status: 'stopped' },
      });
      await vi.waitFor(async () => {
        const { rows } = await turn.query(
          "select count(*)::int as waiting from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        expect(rows[0].waiting).toBe(1);
      });
      await turn.query(
        `update messages set parts = '[{"type":"text","text":"1, 2, 3"}]', metadata = '{"status":"complete"}' where id = $1`,
        [step?.id],
      );
      await turn.query('update sessions set active_turn_id = null where id = $1', [source.id]);
      await turn.query('commit');
      const copied = await listMessages(database.db, (await forked).id);
      expect(copied.map(({ parts, metadata }) => ({ parts, metadata }))).toEqual([
        { parts: [{ type: 'text', text: 'count' }], metadata: null },
        { parts: [{ type: 'text', text: '1, 2, 3' }], metadata: { status: 'complete' } },
      ]);
    } finally {
      await turn.end();
      await database.close();
      await empty.drop();
    }
  });
});
