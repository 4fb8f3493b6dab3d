import { expect, test } from '@playwright/test';
import { send } from '../helpers/raw-request';

// The API's edge on the real server. The proxy answers the /api paths with a percent-escape or
// an empty segment; the route modules (and the catch-all of unknown paths) answer the rest
// themselves. Either way a refusal is the same JSON, with the same headers.

type Case = { method: string; path: string; host?: string; status: number; code: string };

const CASES: Case[] = [
  // A foreign name (DNS rebinding), on a route, on an unknown path, through the proxy.
  {
    method: 'GET',
    path: '/api/models',
    host: 'evil.example',
    status: 421,
    code: 'host_not_allowed',
  },
  { method: 'GET', path: '/api/nope', host: 'evil.example', status: 421, code: 'host_not_allowed' },
  {
    method: 'GET',
    path: '/api/%6dodels',
    host: 'evil.example',
    status: 421,
    code: 'host_not_allowed',
  },
  // Methods a route lacks: HEAD does not run GET, OPTIONS is no preflight.
  { method: 'PUT', path: '/api/sessions', status: 405, code: 'method_not_allowed' },
  { method: 'OPTIONS', path: '/api/sessions', status: 405, code: 'method_not_allowed' },
  { method: 'HEAD', path: '/api/sessions/abc/events', status: 405, code: 'method_not_allowed' },
  // No such route: the catch-all, and the proxy for what Next must not route.
  { method: 'GET', path: '/api/nope', status: 404, code: 'not_found' },
  { method: 'POST', path: '/api/sessions/abc/x/y', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/sessions/', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/%73essions', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/sessions/%C0%AF', status: 400, code: 'invalid_path' },
  // A route's own answer: no credential.
  { method: 'GET', path: '/api/sessions', status: 401, code: 'unauthenticated' },
];

test('the API refuses what it cannot take in JSON, with the security headers', async () => {
  const base = new URL(test.info().project.use.baseURL as string);
  for (const { method, path, host, status, code } of CASES) {
    const label = `${method} ${path}${host ? ` (Host: ${host})` : ''}`;
    const answer = await send(base, { method, path, headers: { host: host ?? base.host } });
    expect(answer.status, label).toBe(status);
    expect(answer.headers['x-content-type-options'], label).toBe('nosniff');
    expect(answer.headers['content-security-policy'], label).toContain("frame-ancestors 'none'");
    if (status === 405) expect(answer.headers.allow, label).toBeTruthy();
    // A HEAD answer has no body.
    if (method !== 'HEAD') {
      expect(JSON.parse(answer.body), label).toEqual({
        error: { code, message: expect.any(String) },
      });
    }
  }
});
