import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as messagesRoute from '@/app/api/sessions/[id]/messages/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import { type Database, openDatabase } from '@/lib/db/client';
import { appendMessages, listMessages } from '@/lib/db/messages';
import { newId } from '@/lib/ids';
import { holdNextTurn } from '@/tests/helpers/held-model';
import { countRoundTrips } from '@/tests/helpers/pg-round-trips';
import { emptyPostgresDatabase, type OwnDatabase } from '@/tests/helpers/postgres';
import { params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

vi.mock('@/lib/agent/models', async (importOriginal) =>
  (await import('@/tests/helpers/held-model')).withHeldModels(
    importOriginal<typeof import('@/lib/agent/models')>,
  ),
);

/** A round trip named by what it does to which table: `select identities`, `update sessions`. */
function kind(statement: string): string {
  const text = statement.trim().toLowerCase();
  const table = (pattern: RegExp) => pattern.exec(text)?.[1] ?? '?';
  if (text.startsWith('select')) return `select ${table(/ from "(\w+)"/)}`;
  if (text.startsWith('insert')) return `insert ${table(/^insert into "(\w+)"/)}`;
  if (text.startsWith('update')) return `update ${table(/^update "(\w+)"/)}`;
  if (text.startsWith('delete')) return `delete ${table(/^delete from "(\w+)"/)}`;
  return text.split(/\s/)[0] ?? text;
}

// Counted on the wire in front of PostgreSQL, so a transaction's begin and commit count too.
describe.skipIf(!process.env.DATABASE_URL)("a turn's round trips to PostgreSQL", () => {
  let own: OwnDatabase;
  let proxy: Awaited<ReturnType<typeof countRoundTrips>>;
  let database: Database;
  const owner = { ownerId: newId() };

  beforeAll(async () => {
    own = await emptyPostgresDatabase();
    const url = new URL(own.url);
    proxy = await countRoundTrips({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    database = await openDatabase({ url: url.toString() });
    useDatabase(database);
  }, 60_000);
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await own?.drop();
  });

  /** A one-step turn: the round trips made before the model is called, and after. */
  async function turn(id: string, body: object) {
    const held = holdNextTurn();
    proxy.reset();
    const response = await messagesRoute.POST(
      request('POST', `/api/sessions/${id}/messages`, owner, body),
      params({ id }),
    );
    expect(response.status).toBe(200);
    await held.started;
    const beforeModel = proxy.trips().map(kind);
    const receivedBeforeModel = proxy.received();
    held.release();
    await response.text();
    return {
      beforeModel,
      receivedBeforeModel,
      after: proxy.trips().map(kind).slice(beforeModel.length),
    };
  }

  it('starts a turn on a new prompt in two round trips: who asks, and the claim', async () => {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    // The claim reads the session, names it, reads the history and stores the prompt.
    const expected = ['select identities', 'with'];
    const prompt = (text: string) => ({
      message: { role: 'user', parts: [{ type: 'text', text }] },
    });
    const first = await turn(id, prompt('Name the chat after me'));
    expect(first.beforeModel).toEqual(expected);
    // A later prompt costs the same, its history longer.
    const second = await turn(id, prompt('And again'));
    expect(second.beforeModel).toEqual(expected);
    // A regenerate claims, reads the history, and drops the last answer (and its widgets) in one
    // statement.
    const again = await turn(id, { trigger: 'regenerate' });
    expect(again.beforeModel).toEqual([
      'select identities',
      'update sessions',
      'select messages',
      'with',
    ]);

    for (const { after } of [first, second, again]) {
      // Then, besides the turn's log: the final save, one statement (a step that calls no tools
      // saves nothing before it), and the release of the session.
      const writes = after.filter((trip) => trip !== 'insert turn_chunks');
      expect(writes).toEqual(['insert messages', 'update sessions']);
    }
  });

  it('writes no log after a short turn’s answer on an instance alone, its last batch among instances', async () => {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    const prompt = { message: { role: 'user', parts: [{ type: 'text', text: 'Hi' }] } };
    /** The writes from the final answer on: a batch before it is the log's tick, not its end. */
    const fromAnswer = (after: string[]) => after.slice(after.indexOf('insert messages'));
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    // Alone, the log is what a crash leaves: the stored answer holds all of it.
    vi.stubEnv('REDIS_URL', '');
    expect(fromAnswer((await turn(id, prompt)).after)).toEqual([
      'insert messages',
      'update sessions',
    ]);
    // Readers on other instances may follow it: its last chunks are logged for them.
    vi.stubEnv('REDIS_URL', 'redis://127.0.0.1:6379');
    expect(fromAnswer((await turn(id, prompt)).after)).toEqual([
      'insert messages',
      'insert turn_chunks',
      'update sessions',
    ]);
  });

  it("reads a long session's whole history at its first turn here, then what was written since", async () => {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    const text = (turn: number) => `${turn}: ${'x'.repeat(2_000)}`;
    await appendMessages(
      database.db,
      id,
      Array.from({ length: 50 }, (_, turn) => [
        { role: 'user' as const, parts: [{ type: 'text' as const, text: text(turn) }] },
        { role: 'assistant' as const, parts: [{ type: 'text' as const, text: text(turn) }] },
      ]).flat(),
    );
    const prompt = { message: { role: 'user', parts: [{ type: 'text', text: 'Go on' }] } };
    // 100 messages of 2 kB each; then the prompt and the answer of the turn before.
    expect((await turn(id, prompt)).receivedBeforeModel).toBeGreaterThan(200_000);
    expect((await turn(id, prompt)).receivedBeforeModel).toBeLessThan(20_000);
    // An edit of the first prompt deletes the rest: the copy holds more than is stored, and the
    // next prompt reads the history whole, in one more round trip.
    const [first] = await listMessages(database.db, id);
    await turn(id, {
      trigger: 'edit',
      message: { id: first?.id, role: 'user', parts: [{ type: 'text', text: 'Start over' }] },
    });
    expect((await turn(id, prompt)).beforeModel).toEqual([
      'select identities',
      'with',
      'select messages',
    ]);
  });

  it('reads a page of earlier messages in one statement: no lookup of the message it is before', async () => {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session as { id: string };
    await turn(id, { message: { role: 'user', parts: [{ type: 'text', text: 'one' }] } });
    await turn(id, { message: { role: 'user', parts: [{ type: 'text', text: 'two' }] } });
    const newest = await (
      await messagesRoute.GET(
        request('GET', `/api/sessions/${id}/messages?limit=2`, owner),
        params({ id }),
      )
    ).json();
    proxy.reset();
    const page = await messagesRoute.GET(
      request('GET', `/api/sessions/${id}/messages?limit=2&before=${newest.messages[0].id}`, owner),
      params({ id }),
    );
    expect((await page.json()).messages).toHaveLength(2);
    expect(proxy.trips().map(kind)).toEqual([
      'select identities',
      'select sessions',
      'select messages',
      'select widget_states',
    ]);
  });
});
