import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { send } from '../helpers/raw-request';

// The API's edge on the real server. The proxy answers the /api paths with a percent-escape or
// an empty segment; the route modules (and the catch-all of unknown paths) answer the rest
// themselves. Either way a refusal is the same JSON, with the same headers.

type Case = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  status: number;
  code: string;
  allow?: string;
};

const CASES: Case[] = [
  // A foreign name (DNS rebinding), on a route, on an unknown path, through the proxy.
  {
    method: 'GET',
    path: '/api/models',
    headers: { host: 'evil.example' },
    status: 421,
    code: 'host_not_allowed',
  },
  {
    method: 'GET',
    path: '/api/nope',
    headers: { host: 'evil.example' },
    status: 421,
    code: 'host_not_allowed',
  },
  {
    method: 'GET',
    path: '/api/%6dodels',
    headers: { host: 'evil.example' },
    status: 421,
    code: 'host_not_allowed',
  },
  // A proxy in front that names a foreign host.
  {
    method: 'GET',
    path: '/api/models',
    headers: { 'x-forwarded-host': 'evil.example' },
    status: 421,
    code: 'host_not_allowed',
  },
  // Methods a route lacks: HEAD does not run GET, OPTIONS is no preflight.
  {
    method: 'PUT',
    path: '/api/sessions',
    status: 405,
    code: 'method_not_allowed',
    allow: 'GET, POST',
  },
  {
    method: 'OPTIONS',
    path: '/api/sessions',
    status: 405,
    code: 'method_not_allowed',
    allow: 'GET, POST',
  },
  {
    method: 'HEAD',
    path: '/api/sessions/abc/events',
    status: 405,
    code: 'method_not_allowed',
    allow: 'GET',
  },
  {
    method: 'OPTIONS',
    path: '/api/sessions/%61bc',
    status: 405,
    code: 'method_not_allowed',
    allow: 'GET, PATCH, DELETE',
  },
  // No such route: the catch-all, and the proxy for what Next must not route.
  { method: 'GET', path: '/api/nope', status: 404, code: 'not_found' },
  { method: 'POST', path: '/api/sessions/abc/x/y', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/sessions/', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/%73essions', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/sessions.rsc', status: 404, code: 'not_found' },
  { method: 'GET', path: '/api/sessions/%C0%AF', status: 400, code: 'invalid_path' },
  // A route's own answers: no credential; a session that is not there, past the proxy too.
  { method: 'GET', path: '/api/sessions', status: 401, code: 'unauthenticated' },
  { method: 'GET', path: '/api/sessions/%61bc', status: 404, code: 'not_found' },
];

test('the API refuses what it cannot take in JSON, with the security headers', async () => {
  const base = new URL(test.info().project.use.baseURL as string);
  for (const { method, path, headers, status, code, allow } of CASES) {
    const label = `${method} ${path} ${JSON.stringify(headers ?? {})}`;
    const answer = await send(base, { method, path, headers: { host: base.host, ...headers } });
    expect(answer.status, label).toBe(status);
    expect(answer.headers['x-content-type-options'], label).toBe('nosniff');
    expect(answer.headers['content-security-policy'], label).toContain("frame-ancestors 'none'");
    expect(answer.headers.allow, label).toBe(allow);
    // A HEAD answer has no body.
    if (method !== 'HEAD') {
      expect(JSON.parse(answer.body), label).toEqual({
        error: { code, message: expect.any(String) },
      });
    }
  }
});

test('a body sent without Content-Length is refused once it passes the cap', async ({
  request,
}) => {
  const base = new URL(test.info().project.use.baseURL as string);
  const page = await request.get('/');
  const cookie = /quanta_id=[^;]+/.exec(page.headers()['set-cookie'] ?? '')?.[0] ?? '';
  expect(cookie).not.toBe('');
  // 16 MiB in chunks with no Content-Length: the cap of 16 KiB must hold without it.
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const req = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: '/api/sessions',
        headers: { cookie, origin: base.origin, 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (data: Buffer) => chunks.push(data));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    const write = () => {
      while (sent < 16 * 1024 * 1024 && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
  expect(answer.status).toBe(413);
  expect(JSON.parse(answer.body).error.code).toBe('too_large');
});
