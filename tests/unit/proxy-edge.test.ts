import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { config, proxy } from '@/proxy';
import { freshDatabase } from '../helpers/databases';
import { reachesProxy } from '../helpers/proxy-matcher';
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

describe('which requests reach the proxy', () => {
  it.each([
    '/api/sessions',
    '/api/sessions/abc/messages',
    '/api/sessions/abc/widgets/call_1/actions',
    '/api/openapi.json',
    '/api/nope/at/all',
    '/_next/static/chunks/app.js',
    '/favicon.ico',
  ])(
    'skips %s: a static file, or an API path of plain segments its module checks',
    async (path) => {
      expect(await reachesProxy(config, path)).toBe(false);
    },
  );

  it.each([
    '/',
    '/c/abc',
    '/api',
    '/api/',
    '/api/sessions/',
    '/api/sessions//messages',
    '/api/%73essions',
    '/api/sessions/%ZZ/stop',
  ])('takes %s: a page, or an API path with a percent-escape or an empty segment', async (path) => {
    expect(await reachesProxy(config, path)).toBe(true);
  });
});

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

describe('proxy: security headers', () => {
  const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? '')?.[1];

  it('gives a page a CSP with a fresh nonce, and the same CSP to Next to put on its scripts', async () => {
    const first = await send('GET', '/');
    const second = await send('GET', '/');
    const policy = first.headers.get('content-security-policy');
    expect(nonceOf(policy)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(second.headers.get('content-security-policy'))).not.toBe(nonceOf(policy));
    expect(first.headers.get('x-middleware-request-content-security-policy')).toBe(policy);
    const scripts = policy?.split('; ').find((directive) => directive.startsWith('script-src'));
    expect(scripts).not.toContain('unsafe-inline');
    expect(scripts).not.toContain('unsafe-eval');
  });

  it('allows eval for scripts under next dev only', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    expect((await send('GET', '/')).headers.get('content-security-policy')).toContain(
      "'unsafe-eval'",
    );
  });

  it.each([
    ['a page', 'GET', '/c/abc'],
    ['an API route', 'GET', '/api/models'],
    ['a refused API request', 'GET', '/api/nope'],
  ])('sets them on %s', async (_, method, path) => {
    const headers = (await send(method, path)).headers;
    expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(headers.get('permissions-policy')).toContain('camera=()');
    expect(headers.get('strict-transport-security')).toBeNull();
  });

  it('adds Strict-Transport-Security behind HTTPS', async () => {
    const response = await send('GET', '/', { 'x-forwarded-proto': 'https' });
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
  });

  it('still gives a new browser its identity cookie', async () => {
    const response = await send('GET', '/');
    expect(response.headers.get('set-cookie')).toMatch(/^quanta_id=/);
    expect(response.headers.get('x-middleware-request-cookie')).toMatch(/quanta_id=/);
  });
});

describe('proxy: host allow-list', () => {
  it('refuses a foreign Host with 421 JSON under /api, with the security headers', async () => {
    const response = await send('GET', '/api/models', { host: 'rebound.evil.example:3000' });
    expect(passedOn(response)).toBe(false);
    expect(response.status).toBe(421);
    expect(await response.json()).toEqual({
      error: { code: 'host_not_allowed', message: expect.any(String) },
    });
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('refuses a foreign Host with a line of text for a page, and gives it no identity', async () => {
    const response = await send('GET', '/', { host: 'rebound.evil.example' });
    expect(response.status).toBe(421);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a foreign X-Forwarded-Host behind an allowed Host', async () => {
    const response = await send('POST', '/api/sessions', { 'x-forwarded-host': 'evil.example' });
    expect(response.status).toBe(421);
  });

  it('takes the names of QUANTA_ALLOWED_HOSTS and QUANTA_PUBLIC_URL', async () => {
    vi.stubEnv('QUANTA_ALLOWED_HOSTS', 'chat.example.com');
    vi.stubEnv('QUANTA_PUBLIC_URL', 'https://quanta.example.org');
    expect(passedOn(await send('GET', '/api/models', { host: 'chat.example.com' }))).toBe(true);
    expect(passedOn(await send('GET', '/api/models', { host: 'quanta.example.org' }))).toBe(true);
    expect((await send('GET', '/api/models')).status).toBe(421);
  });
});

describe('proxy: page paths', () => {
  it('answers a page path that does not decode with 400 text, not a 500', async () => {
    const response = await send('GET', '/c/%C0%AF');
    expect(passedOn(response)).toBe(false);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('percent-encoded');
  });
});
