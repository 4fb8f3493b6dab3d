import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { type FakeOpenAI, modelEnv, reply, startFakeOpenAI } from '../helpers/fake-openai';
import { freePort, type NextServer, newIdentity, startNext } from '../helpers/next-server';
import { emptyPostgresDatabase, type OwnDatabase } from '../helpers/postgres';
import { readSse, streamedText, until } from '../helpers/sse-reader';
import { apiAs, createSession, errors, expect, read, say, test, texts } from './fixtures';

// Issue 13, scaled out: two `next start` instances on one PostgreSQL database and one Redis,
// as behind a load balancer. A turn runs on A; B replays and follows it, refuses a second
// prompt, runs a widget action whose event A's viewers hear, and stops it.

const scaled = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
test.skip(!scaled, 'needs DATABASE_URL and REDIS_URL (a PostgreSQL and a Redis to share)');

const MODEL = 'fake-model';
/** The model's slow answer: a word every 80 ms, about 4 s in all. */
const WORDS = Array.from({ length: 50 }, (_, index) => `w${index + 1} `);
const FULL = WORDS.join('');
const PACE_MS = 80;

let fake: FakeOpenAI;
let database: OwnDatabase;
const servers: NextServer[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fake = await startFakeOpenAI();
  // "counter" opens the counter widget, then the answer comes slowly; "quick" is answered at once.
  fake.respond(({ body }) => {
    const last = body.messages.at(-1);
    const asked = JSON.stringify(last?.content ?? '');
    if (last?.role === 'user' && asked.includes('counter')) {
      return reply.toolCalls([{ name: 'show_counter', args: { start: 3 } }]);
    }
    if (asked.includes('quick')) return reply.text('Done.');
    return reply.paced(PACE_MS, ...WORDS);
  });
  database = await emptyPostgresDatabase('quanta_scale');
  const env = {
    ...modelEnv(fake, MODEL),
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL as string,
    QUANTA_SECRET: randomBytes(32).toString('hex'),
  };
  const [a, b] = [await freePort(), await freePort()];
  servers.push(...(await Promise.all([a, b].map((port) => startNext({ port, env })))));
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await fake?.close();
  await database?.drop();
});

test('a turn on A is followed, refused, acted on and stopped from B', async ({ playwright }) => {
  test.setTimeout(60_000);
  const [a, b] = servers as [NextServer, NextServer];
  const { bearer } = await newIdentity(a.url);
  const auth = { authorization: `Bearer ${bearer}` };
  const onA = await apiAs(playwright, a.url, bearer);
  const onB = await apiAs(playwright, b.url, bearer);
  const { id } = await createSession(onA);

  const eventsOnA = await readSse(`${a.url}/api/sessions/${id}/events`, { headers: auth });
  expect(eventsOnA.status).toBe(200);
  const onATurn = await readSse(`${a.url}/api/sessions/${id}/messages`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      message: { role: 'user', parts: [{ type: 'text', text: 'a counter, then talk' }] },
    }),
  });
  expect(onATurn.status).toBe(200);
  // The counter is open (its step is stored) and the slow answer has begun.
  await until(() => streamedText(onATurn.events).length >= 5 * 3, 'the answer on A to begin');
  const opened = onATurn.events.find(({ data }) => data.type === 'tool-output-available');
  const toolCallId = opened?.data.toolCallId as string;
  expect(toolCallId).toBeTruthy();

  // B replays the turn from its first chunk and follows it.
  const onBTurn = await readSse(`${b.url}/api/sessions/${id}/stream`, { headers: auth });
  expect(onBTurn.status).toBe(200);
  await until(() => onBTurn.events.length >= onATurn.events.length, 'B to catch up with A');

  // A second prompt on B while A runs the turn is refused.
  const refused = await onB.post(`/api/sessions/${id}/messages`, {
    data: { message: { role: 'user', parts: [{ type: 'text', text: 'quick, please' }] } },
  });
  expect(refused.status(), await refused.text()).toBe(409);
  expect(await refused.json()).toMatchObject({ error: { code: 'turn_active' } });

  // A click on B's counter reaches whoever watches the session on A.
  const clicked = await onB.post(`/api/sessions/${id}/widgets/${toolCallId}/actions`, {
    data: { action: 'increment', version: 0 },
  });
  expect(clicked.status(), await clicked.text()).toBe(200);
  expect(await clicked.json()).toEqual({ data: { count: 4 }, version: 1 });
  await until(
    () => eventsOnA.events.some(({ data }) => data.type === 'widget'),
    'the widget event on A',
  );
  expect(eventsOnA.events.find(({ data }) => data.type === 'widget')?.data).toEqual({
    type: 'widget',
    toolCallId,
    data: { count: 4 },
    version: 1,
  });

  // Stop on B ends the turn on A within a second, mid-answer.
  await until(() => streamedText(onATurn.events).length >= 15 * 3, 'more of the answer on A');
  expect(onATurn.ended()).toBe(false);
  const stopAt = Date.now();
  const stopped = await onB.post(`/api/sessions/${id}/stop`);
  expect(await stopped.json()).toEqual({ stopped: true });
  const endedAt = await onATurn.end;
  console.log(`scale-out: A's stream ended ${endedAt - stopAt} ms after Stop on B`);
  expect(endedAt - stopAt).toBeLessThan(1_000);
  await onBTurn.end;

  // B gave exactly what A's client received, chunk for chunk, ending with the stopped status.
  const chunksOfA = onATurn.events.map(({ data }) => data);
  expect(onBTurn.events.map(({ data }) => data)).toEqual(chunksOfA);
  expect(streamedText(onBTurn.events)).toBe(streamedText(onATurn.events));
  expect(chunksOfA.at(-1)).toMatchObject({
    type: 'message-metadata',
    messageMetadata: { status: 'stopped' },
  });

  // Both instances serve the partial answer, stopped, and the session takes prompts again.
  const received = streamedText(onATurn.events);
  for (const api of [onA, onB]) {
    const { session, messages } = await read(api, id);
    expect(session.turnActive).toBe(false);
    const answer = messages.at(-1);
    expect(answer?.metadata?.status).toBe('stopped');
    expect(texts(answer)).toBe(received);
    expect(FULL.startsWith(received)).toBe(true);
    expect(received.length).toBeGreaterThan(0);
    expect(received).not.toBe(FULL);
  }
  expect(eventsOnA.events.map(({ data }) => data).filter(({ type }) => type === 'turn')).toEqual([
    { type: 'turn', status: 'started' },
    { type: 'turn', status: 'ended' },
  ]);
  await expectAnswered(onB, id);
  eventsOnA.abort();
  await onA.dispose();
  await onB.dispose();
});

/** A quick prompt is answered in full. */
async function expectAnswered(api: APIRequestContext, id: string) {
  const chunks = await say(api, id, 'quick, please');
  expect(errors(chunks)).toEqual([]);
  expect((await read(api, id)).messages.at(-1)?.metadata?.status).toBe('complete');
}
