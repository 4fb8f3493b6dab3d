import type { APIRequestContext } from '@playwright/test';
import { freePort, type NextServer, newIdentity, startNext } from '../helpers/next-server';
import {
  apiAs,
  createSession,
  errors,
  expect,
  read,
  type SessionView,
  type SessionWithMessages,
  say,
  test,
  texts,
} from './fixtures';

// Issue: "Restart the server: every session and message is still there". The app runs on its
// own `next start` (embedded PGlite in a temporary folder), is stopped, and a second
// `next start` on the same folder must serve exactly what the first one stored.

const servers: NextServer[] = [];

test.afterAll(async () => {
  // Also runs when a test failed or timed out: no server outlives the spec.
  await Promise.all(servers.map((server) => server.stop()));
});

test('restart the server: every session and message is still there', async ({
  playwright,
  browser,
  stranger: reader,
}) => {
  test.setTimeout(90_000);
  const port = await freePort();
  const first = await startNext({ port });
  servers.push(first);
  const { cookie, bearer } = await newIdentity(first.url);
  const api = await apiAs(playwright, first.url, bearer);

  // Three sessions: one with two turns (renamed afterwards), one public with one turn, one empty.
  const math = await createSession(api);
  await sayToTheEnd(api, math.id, 'calculate 12 * (3 + 4)');
  await sayToTheEnd(api, math.id, 'what is 2 + 3');
  await patch(api, math.id, { title: 'Arithmetic' });
  const shared = await createSession(api, { title: 'Groceries' });
  await sayToTheEnd(api, shared.id, 'hello there');
  await patch(api, shared.id, { visibility: 'public' });
  const empty = await createSession(api, { title: 'Nothing yet' });

  const listBefore = await list(api);
  const before = new Map<string, SessionWithMessages>();
  for (const { id } of [math, shared, empty]) before.set(id, await read(api, id));
  await api.dispose();

  // What was stored, checked before the restart so the comparison below means something.
  expect(listBefore.map(({ title, visibility }) => ({ title, visibility }))).toEqual([
    { title: 'Nothing yet', visibility: 'private' },
    { title: 'Groceries', visibility: 'public' },
    { title: 'Arithmetic', visibility: 'private' },
  ]);
  const mathBefore = before.get(math.id) as SessionWithMessages;
  expect(mathBefore.messages.map((message) => message.role)).toEqual([
    'user',
    'assistant',
    'user',
    'assistant',
  ]);
  expect(texts(mathBefore.messages[0])).toBe('calculate 12 * (3 + 4)');
  expect(texts(mathBefore.messages[1])).toContain('12 × (3 + 4) = 84.');
  expect(mathBefore.messages[1]?.parts.some((part) => part.type === 'tool-calculate')).toBe(true);
  expect(texts(mathBefore.messages[2])).toBe('what is 2 + 3');
  expect(texts(mathBefore.messages[3])).toContain('2 + 3 = 5');
  for (const message of mathBefore.messages.filter((m) => m.role === 'assistant')) {
    expect(message.metadata).toMatchObject({ status: 'complete', model: 'demo:offline' });
  }
  const sharedBefore = before.get(shared.id) as SessionWithMessages;
  expect(sharedBefore.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  expect(texts(sharedBefore.messages[1])).toContain('offline demo model');
  expect(before.get(empty.id)?.messages).toEqual([]);

  await first.stop();
  await expect(fetch(`${first.url}/`)).rejects.toThrow();

  const second = await startNext({ port, env: { QUANTA_DATA_DIR: first.dataDir } });
  servers.push(second);
  // The same token still works (it is in the database), and so does the cookie below: the
  // secret that signs it lives in the data folder too.
  const again = await apiAs(playwright, second.url, bearer);
  expect(await list(again)).toEqual(listBefore);
  for (const [id, stored] of before) expect(await read(again, id)).toEqual(stored);

  // Turn marks do not survive a restart, so the old session takes a new message at once.
  await sayToTheEnd(again, math.id, 'calculate 6 * 7');
  const after = await read(again, math.id);
  expect(after.messages.slice(0, 4)).toEqual(mathBefore.messages);
  expect(after.messages.map((message) => message.role)).toHaveLength(6);
  expect(texts(after.messages[5])).toContain('6 × 7 = 42.');
  await again.dispose();

  // The pages render the stored transcripts: the owner's private one, and the public one for
  // someone else; the private one stays hidden from that someone else.
  const owner = await browser.newContext();
  await owner.addCookies([{ name: 'quanta_id', value: cookie, url: second.url }]);
  const page = await owner.newPage();
  await page.goto(`${second.url}/c/${math.id}`);
  await expect(page.getByRole('heading', { name: 'Arithmetic' })).toBeVisible();
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript).toContainText('calculate 12 * (3 + 4)');
  await expect(transcript).toContainText('12 × (3 + 4) = 84.');
  await expect(transcript).toContainText('what is 2 + 3');
  await expect(transcript).toContainText('2 + 3 = 5');
  await page.screenshot({ path: 'test-results/restart-transcript.png', fullPage: true });
  await owner.close();

  await reader.goto(`${second.url}/c/${shared.id}`);
  await expect(reader.getByRole('heading', { name: 'Groceries' })).toBeVisible();
  await expect(reader.getByRole('list', { name: 'Transcript' })).toContainText('hello there');
  await expect(reader.getByRole('list', { name: 'Transcript' })).toContainText(
    'offline demo model',
  );
  expect((await reader.goto(`${second.url}/c/${math.id}`))?.status()).toBe(404);
});

async function patch(
  api: APIRequestContext,
  id: string,
  data: Record<string, unknown>,
): Promise<void> {
  const response = await api.patch(`/api/sessions/${id}`, { data });
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as { session: SessionView }).session).toMatchObject(data);
}

/** Says `text` and expects the turn to finish without an error. */
async function sayToTheEnd(api: APIRequestContext, id: string, text: string): Promise<void> {
  const chunks = await say(api, id, text);
  expect(chunks.map((chunk) => chunk.type)).toContain('finish');
  expect(errors(chunks)).toEqual([]);
}

async function list(api: APIRequestContext): Promise<SessionView[]> {
  const response = await api.get('/api/sessions?limit=100');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { sessions: SessionView[] }).sessions;
}
