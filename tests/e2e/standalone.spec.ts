import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, type NextServer, newIdentity, startNext } from '../helpers/next-server';
import { apiAs, createSession, expect, read, test, texts, type UiChunk } from './fixtures';

// Issue 13, "Self-hosting": the standalone output is what the Dockerfile ships. It must be a
// whole server on its own: create a new PGlite database (PGlite's .wasm and .data, its worker
// thread's script, the template a new database starts from, the migrations), stream a turn,
// and serve the assets its pages load.

const standalone = resolve(__dirname, '..', '..', '.next', 'standalone');
const servers: NextServer[] = [];

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

test('the standalone output carries the files read at run time, and no source', () => {
  for (const path of [
    'server.js',
    'lib/db/migrations/meta/_journal.json',
    'lib/db/pglite-worker.mjs',
    'lib/db/pglite-template.tar',
    'node_modules/@electric-sql/pglite/dist/pglite.wasm',
    'node_modules/@electric-sql/pglite/dist/pglite.data',
  ]) {
    expect(existsSync(join(standalone, path)), path).toBe(true);
  }
  // A path the build cannot see through (the data folder) once made it copy the whole project.
  for (const path of ['app', 'tests', 'lib/db/client.ts']) {
    expect(existsSync(join(standalone, path)), path).toBe(false);
  }
});

test('the standalone server streams a turn on a new database and stores it', async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  const server = await startNext({ port: await freePort(), standalone: true });
  servers.push(server);
  const { bearer } = await newIdentity(server.url);
  const api = await apiAs(playwright, server.url, bearer);
  const session = await createSession(api);

  const events = await postMessage(server.url, bearer, session.id, 'hello there');
  const chunks = events.map((event) => event.chunk);
  expect(chunks.map((chunk) => chunk.type)).toContain('finish');
  expect(chunks.filter((chunk) => chunk.type === 'error')).toEqual([]);
  // Streamed: the answer's words came over several reads, not in one piece at the end.
  const deltaReads = events
    .filter((event) => event.chunk.type === 'text-delta')
    .map((event) => event.read);
  expect(new Set(deltaReads).size).toBeGreaterThan(1);
  const streamed = chunks
    .filter((chunk) => chunk.type === 'text-delta')
    .map((chunk) => chunk.delta)
    .join('');
  expect(streamed).toContain('offline demo model');

  const { messages } = await read(api, session.id);
  expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  expect(texts(messages[0])).toBe('hello there');
  expect(texts(messages[1])).toBe(streamed);
  expect(messages[1]?.metadata).toMatchObject({ status: 'complete', model: 'demo:offline' });
  await api.dispose();

  // The page's scripts come from .next/static, which the build leaves out of the standalone
  // folder and a deployment copies in.
  const page = await (await fetch(`${server.url}/`)).text();
  const script = /\/_next\/static\/[^"]+\.js/.exec(page)?.[0];
  expect(script, 'a script in the page').toBeDefined();
  const asset = await fetch(`${server.url}${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toContain('javascript');
});

/**
 * Posts a prompt and reads its SSE answer as it arrives, to the closing [DONE]: each chunk, and
 * the read of the body it ended in.
 */
async function postMessage(
  url: string,
  bearer: string,
  id: string,
  text: string,
): Promise<{ chunk: UiChunk; read: number }[]> {
  const response = await fetch(`${url}/api/sessions/${id}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: { role: 'user', parts: [{ type: 'text', text }] } }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events: { data: string; read: number }[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  let reads = 0;
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    reads += 1;
    pending += decoder.decode(bytes, { stream: true });
    const complete = pending.split('\n\n');
    pending = complete.pop() ?? '';
    for (const event of complete.map((part) => part.trim()).filter(Boolean)) {
      expect(event.startsWith('data: '), event).toBe(true);
      events.push({ data: event.slice('data: '.length), read: reads });
    }
  }
  expect(pending.trim()).toBe('');
  expect(events.pop()?.data).toBe('[DONE]');
  return events.map(({ data, read }) => ({ chunk: JSON.parse(data) as UiChunk, read }));
}
