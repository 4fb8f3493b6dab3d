import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { proxy } from '@/proxy';
import { freshDatabase } from '../helpers/databases';
import { useDatabase } from '../helpers/routes';

// A page request may be given an identity, which the proxy records in the database.
let database: Awaited<ReturnType<typeof freshDatabase>>;
beforeAll(async () => {
  database = await freshDatabase('pglite');
  useDatabase(database);
}, 60_000);
afterAll(() => database.drop());

beforeEach(() => {
  vi.stubEnv('QUANTA_SECRET', 'proxy-edge-test-secret');
  return () => vi.unstubAllEnvs();
});

function send(method: string, path: string, headers: Record<string, string> = {}) {
  return proxy(
    new NextRequest(`http://localhost:3000${path}`, {
      method,
      headers: { host: 'localhost:3000', ...headers },
    }),
  );
}

/** Whether the proxy let the request go on to Next (a handler or a page). */
const passedOn = (response: Response) => response.headers.get('x-middleware-next') === '1';

describe('proxy: /api requests no handler can take', () => {
  it.each([
    ['GET', '/api/sessions/%C0%AF', 400, 'invalid_path'],
    ['POST', '/api/sessions/%ZZ/stop', 400, 'invalid_path'],
    ['GET', '/api/nope', 404, 'not_found'],
    ['POST', '/api/sessions/%2e%2e/stop', 404, 'not_found'],
    ['DELETE', '/api/models', 405, 'method_not_allowed'],
    ['HEAD', '/api/sessions/abc/events', 405, 'method_not_allowed'],
    ['OPTIONS', '/api/sessions', 405, 'method_not_allowed'],
  ])('%s %s: %i %s in JSON', async (method, path, status, code) => {
    const response = await send(method, path);
    expect(passedOn(response)).toBe(false);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('names the allowed methods of a route in Allow', async () => {
    expect((await send('PUT', '/api/sessions')).headers.get('allow')).toBe('GET, POST');
  });

  it('passes a request a handler takes on to Next', async () => {
    expect(passedOn(await send('GET', '/api/models'))).toBe(true);
    expect(passedOn(await send('POST', '/api/sessions/abc/messages'))).toBe(true);
  });

  it('leaves pages to Next, also paths it does not know', async () => {
    expect(passedOn(await send('GET', '/c/abc'))).toBe(true);
    expect(passedOn(await send('GET', '/nope'))).toBe(true);
  });
});
