import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { type FakeOpenAI, modelEnv, reply, startFakeOpenAI } from '../helpers/fake-openai';
import { freePort, type NextServer, newIdentity, startNext } from '../helpers/next-server';
import { emptyPostgresDatabase, type OwnDatabase } from '../helpers/postgres';
import { readSse, type SseReader, streamedText, until } from '../helpers/sse-reader';
import { apiAs, createSession, errors, expect, read, say, test, texts } from './fixtures';

// Issue 13: a turn outlives its client, and what a turn wrote outlives its server. A server is
// killed (SIGKILL, nothing runs after it) in the middle of an answer; whoever serves the session
// next shows what was written, marked interrupted, and takes prompts again.

const MODEL = 'fake-model';
/** The model's slow answer: a word every 80 ms, about 4 s in all. */
const WORDS = Array.from({ length: 50 }, (_, index) => `w${index + 1} `);
const FULL = WORDS.join('');
const PACE_MS = 80;
/**
 * At most what a kill loses, with a margin: the turn's log is written every second, every 100 ms
 * once a reader on another instance follows the turn.
 */
const LOST_AT_MOST_MS = { unfollowed: 1_500, followed: 500 };

let fake: FakeOpenAI;
const servers: NextServer[] = [];

test.beforeAll(async () => {
  fake = await startFakeOpenAI();
  // "quick" is answered at once, anything else slowly.
  fake.respond(({ body }) =>
    JSON.stringify(body.messages.at(-1)?.content ?? '').includes('quick')
      ? reply.text('Done.')
      : reply.paced(PACE_MS, ...WORDS),
  );
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await fake?.close();
});

async function start(env: Record<string, string> = {}): Promise<NextServer> {
  const server = await startNext({
    port: await freePort(),
    env: { ...modelEnv(fake, MODEL), ...env },
  });
  servers.push(server);
  return server;
}

/** Posts a prompt that is answered slowly and reads the answer as it comes. */
async function slowTurn(url: string, bearer: string, id: string): Promise<SseReader> {
  const turn = await readSse(`${url}/api/sessions/${id}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      message: { role: 'user', parts: [{ type: 'text', text: 'count slowly' }] },
    }),
  });
  expect(turn.status).toBe(200);
  return turn;
}

/** Waits until the answer has been coming for `ms` milliseconds. */
async function streamedFor(turn: SseReader, ms: number) {
  await until(() => streamedText(turn.events).length > 0, 'the answer to begin');
  const first = turn.events.find(({ data }) => data.type === 'text-delta')?.at as number;
  await until(() => Date.now() >= first + ms, `${ms} ms of the answer`);
  expect(turn.ended()).toBe(false);
}

/**
 * The interrupted answer the server stored: a start of the script holding at least what the
 * client had received `lostAtMostMs` before the kill. Prints, after `crash`, how much of what
 * the client had received it lost.
 */
function expectInterrupted(
  crash: string,
  answer: Parameters<typeof texts>[0],
  turn: SseReader,
  killedAt: number,
  lostAtMostMs: number,
): void {
  const stored = texts(answer);
  expect(answer?.metadata?.status).toBe('interrupted');
  expect(FULL.startsWith(stored), stored).toBe(true);
  expect(stored.length).toBeGreaterThanOrEqual(
    streamedText(turn.events, killedAt - lostAtMostMs).length,
  );
  expect(stored.length).toBeGreaterThan(0);
  const received = streamedText(turn.events).length;
  console.log(
    `${crash}: the client had ${received} characters, ${received - stored.length} of them were lost`,
  );
}

/** A quick prompt is answered in full at once. */
async function expectAnswered(api: APIRequestContext, id: string) {
  const chunks = await say(api, id, 'quick, please');
  expect(errors(chunks)).toEqual([]);
  const answer = (await read(api, id)).messages.at(-1);
  expect(answer?.metadata?.status).toBe('complete');
  expect(texts(answer)).toBe('Done.');
}

test('a client that disconnects mid-turn: the turn finishes and is stored', async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  const server = await start();
  const { bearer } = await newIdentity(server.url);
  const api = await apiAs(playwright, server.url, bearer);
  const { id } = await createSession(api);
  const turn = await slowTurn(server.url, bearer, id);
  await until(() => streamedText(turn.events).length >= 3 * 3, 'the first words');
  turn.abort();
  await turn.end;

  await expect
    .poll(async () => (await read(api, id)).messages.at(-1)?.metadata?.status, {
      timeout: 15_000,
    })
    .toBe('complete');
  const { session, messages } = await read(api, id);
  expect(texts(messages.at(-1))).toBe(FULL);
  expect(session.turnActive).toBe(false);
  await api.dispose();
  await server.stop();
});

test('PGlite: a server killed mid-turn restarts with the interrupted answer', async ({
  playwright,
}) => {
  test.setTimeout(120_000);
  const first = await start();
  const { bearer } = await newIdentity(first.url);
  const before = await apiAs(playwright, first.url, bearer);
  const { id } = await createSession(before);
  await before.dispose();
  const turn = await slowTurn(first.url, bearer, id);
  await streamedFor(turn, 2_000);
  const killedAt = Date.now();
  await first.kill();

  const second = await start({ QUANTA_DATA_DIR: first.dataDir });
  const api = await apiAs(playwright, second.url, bearer);
  const { session, messages } = await read(api, id);
  expect(session.turnActive).toBe(false);
  expect(messages.map(({ role }) => role)).toEqual(['user', 'assistant']);
  expectInterrupted('PGlite crash', messages.at(-1), turn, killedAt, LOST_AT_MOST_MS.unfollowed);
  await expectAnswered(api, id);
  await api.dispose();
});

test.describe('PostgreSQL', () => {
  test.skip(
    !process.env.DATABASE_URL || !process.env.REDIS_URL,
    'needs DATABASE_URL and REDIS_URL (a PostgreSQL and a Redis to share)',
  );
  let database: OwnDatabase;

  test.beforeAll(async () => {
    database = await emptyPostgresDatabase('quanta_crash');
  });

  test.afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  test('an instance killed mid-turn: the other serves the interrupted answer', async ({
    playwright,
  }) => {
    test.setTimeout(120_000);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUANTA_SECRET: randomBytes(32).toString('hex'),
    };
    const [a, b] = await Promise.all([start(env), start(env)]);
    const { bearer } = await newIdentity(a.url);
    const onB = await apiAs(playwright, b.url, bearer);
    // Two sessions, each with a turn on A: one, followed from B (so logged every 100 ms), is
    // read after the crash; the other, unfollowed (logged every second), stopped.
    const read1 = (await createSession(onB)).id;
    const stop2 = (await createSession(onB)).id;
    const turns = [
      await slowTurn(a.url, bearer, read1),
      await slowTurn(a.url, bearer, stop2),
    ] as const;
    const follower = await readSse(`${b.url}/api/sessions/${read1}/stream`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(follower.status).toBe(200);
    for (const turn of turns) await streamedFor(turn, 2_000);
    const killedAt = Date.now();
    await a.kill();

    // Within the stale window nobody can tell a dead server from a slow one: still refused.
    for (const id of [read1, stop2]) {
      const refused = await onB.post(`/api/sessions/${id}/messages`, {
        data: { message: { role: 'user', parts: [{ type: 'text', text: 'quick, please' }] } },
      });
      expect(refused.status(), await refused.text()).toBe(409);
      expect((await read(onB, id)).session.turnActive).toBe(true);
    }
    expect(follower.ended()).toBe(false);

    // The marks age past the stale window (as if minutes had passed without a renewal).
    await database.query(
      `update sessions set active_turn_started_at = now() - interval '3 minutes'
       where id = any($1)`,
      [[read1, stop2]],
    );
    // Reading the session closes the dead turn with what its log held.
    const { session, messages } = await read(onB, read1);
    expect(session.turnActive).toBe(false);
    expectInterrupted(
      'PostgreSQL crash, followed turn',
      messages.at(-1),
      turns[0],
      killedAt,
      LOST_AT_MOST_MS.followed,
    );
    // B's reader of the dead turn is let go.
    await expect.poll(() => follower.ended(), { timeout: 5_000 }).toBe(true);
    await expectAnswered(onB, read1);

    // Stop on B ends the dead turn the same way.
    const stopped = await onB.post(`/api/sessions/${stop2}/stop`);
    expect(await stopped.json()).toEqual({ stopped: true });
    const after = await read(onB, stop2);
    expect(after.session.turnActive).toBe(false);
    expectInterrupted(
      'PostgreSQL crash, unfollowed turn',
      after.messages.at(-1),
      turns[1],
      killedAt,
      LOST_AT_MOST_MS.unfollowed,
    );
    await expectAnswered(onB, stop2);
    await onB.dispose();
  });
});
