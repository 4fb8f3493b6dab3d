import { expect, test } from '@playwright/test';
import { API_ROUTES } from '@/lib/http/api-routes';
import { ROUTE_METHODS } from '@/lib/http/route-handlers';
import { type Answer, type Sent, send } from '../helpers/raw-request';

// A hostile but careful client, from a fixed seed: thousands of requests over every route with
// malformed paths, methods, cookies, tokens and bodies. Whatever it sends, the server answers
// below 500, and under /api always with a JSON `{ error: { code, message } }` when it refuses.

const REQUESTS = 3_000;
const SEED = 0x5eed_2026;
const PARALLEL = 4;

/** mulberry32: a small PRNG, so every run sends the same requests. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, chance: (p: number) => next() < p };
}

const UNICODE = [
  'plain',
  '😀 emoji',
  'naïve café',
  '中文字符',
  '\u202eRTL override',
  'line\u2028separator',
  'zero\u200bwidth',
  '\uFEFFbom',
  'combining e\u0301',
  '𝕏'.repeat(50),
];

/** Raw JSON text that no JSON.stringify of a well-formed value would produce. */
const HOSTILE_JSON = [
  '{',
  '{"title":',
  '[',
  '"unterminated',
  'nul\u0000l',
  '{"title":"a\\u0000b"}',
  '{"title":"\\ud800"}',
  '{"title":"\\udfff\\ud800"}',
  '{"message":{"role":"user","parts":[{"type":"text","text":"\\u0000"}]}}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"title":1e999}',
  '{"limit":-0}',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  'null',
  'true',
  '0',
  '[]',
  '""',
];

test('3,000 fuzzed requests: no 5xx, and JSON errors under /api', async ({ request }) => {
  test.setTimeout(300_000);
  const base = new URL(test.info().project.use.baseURL as string);
  const origin = base.origin;
  const rng = random(SEED);

  // Real resources, so that a good share of requests reach the handlers' deeper checks.
  const cookieOf = async () => {
    const page = await request.get('/', { headers: { cookie: '' } });
    const cookie = page.headers()['set-cookie'] ?? '';
    return /quanta_id=[^;]+/.exec(cookie)?.[0] ?? '';
  };
  const owner = await cookieOf();
  const stranger = await cookieOf();
  expect(owner).not.toBe('');
  const ownerHeaders = { cookie: owner, origin };
  const create = async (body: object) =>
    (await (await request.post('/api/sessions', { headers: ownerHeaders, data: body })).json())
      .session.id as string;
  const privateId = await create({ title: 'private' });
  const publicId = await create({ title: 'public' });
  await request.patch(`/api/sessions/${publicId}`, {
    headers: ownerHeaders,
    data: { visibility: 'public' },
  });
  const turn = await request.post(`/api/sessions/${publicId}/messages`, {
    headers: ownerHeaders,
    data: { message: { role: 'user', parts: [{ type: 'text', text: 'show me a counter' }] } },
  });
  await turn.body();
  const stored = await (
    await request.get(`/api/sessions/${publicId}`, { headers: ownerHeaders })
  ).json();
  const toolCallId: string =
    stored.messages
      .flatMap((message: { parts: { toolCallId?: string }[] }) => message.parts)
      .find((part: { toolCallId?: string }) => part.toolCallId)?.toolCallId ?? 'call_missing';
  const created = await request.post('/api/tokens', {
    headers: ownerHeaders,
    data: { name: 'fuzz' },
  });
  const token: string = (await created.json()).bearer ?? 'qk_missing';

  const ids = [
    privateId,
    publicId,
    'AAAAAAAAAAAAAAAAAAAAAA',
    '%C0%AF',
    '%ZZ',
    '%',
    '%00',
    '..',
    '%2e%2e',
    '.',
    'constructor',
    '__proto__',
    'toString',
    'a'.repeat(300),
    '%F0%9F%98%80',
    '%3Cscript%3E',
    '%E0%A4%A',
    '-',
    'null',
  ];
  // Well-formed credentials and headers most of the time, so that requests get past the edge
  // and into the handlers' own checks.
  const cookies = [
    owner,
    owner,
    owner,
    owner,
    owner,
    owner,
    stranger,
    stranger,
    '',
    'quanta_id=%E0%A4%A',
    'quanta_id=%',
    `quanta_id=${'x'.repeat(4_000)}`,
    'quanta_id=a.b.c',
    'quanta_id="quoted"',
    `${owner}; quanta_id=forged.value`,
    'quanta_id=',
    '=;;=;',
  ];
  const authorizations = [
    undefined,
    undefined,
    `Bearer ${token}`,
    'Bearer ',
    'Bearer x',
    'Basic Zm9vOmJhcg==',
    `Bearer ${owner.slice('quanta_id='.length)}`,
    `Bearer ${'y'.repeat(4_000)}`,
    'bearer qk_',
  ];
  const origins = [
    origin,
    origin,
    origin,
    origin,
    origin,
    undefined,
    'https://evil.example',
    'null',
  ];
  const hosts = [
    ...Array.from({ length: 12 }, () => base.host),
    'evil.example',
    `localhost:${base.port}`,
  ];
  const unknownPaths = [
    '/api',
    '/api/',
    '/api/nope',
    '/api/sessions/x/y/z',
    '/api/sessions/%2e%2e/stop',
    '/api/%73essions',
    '/api/sessions//messages',
    '/api/sessions/%C0%AF/fork',
    '/api/openapi.json/x',
    `/api/${'n'.repeat(3_000)}`,
    '/c/%ZZ',
    '/c/%C0%AF',
    '/c/nope',
    '/nope',
    `/c/${privateId}`,
    `/c/${publicId}`,
    '/',
  ];
  const queries = [
    '',
    '',
    '?limit=2',
    '?limit=0',
    '?limit=1e3',
    '?limit=-1',
    '?limit=abc',
    '?cursor=%ZZ',
    '?cursor=bm9wZQ',
    `?cursor=${Buffer.from(`0000-01-01T00:00:00.000Z ${privateId}`).toString('base64url')}`,
    '?a=%00',
  ];
  const methods = [
    'GET',
    'GET',
    'GET',
    'POST',
    'POST',
    'POST',
    'POST',
    'PATCH',
    'PATCH',
    'DELETE',
    'PUT',
    'HEAD',
    'OPTIONS',
    'PROPFIND',
  ];

  const validBodies = (): object[] => [
    { title: rng.pick(UNICODE) },
    { visibility: rng.pick(['public', 'private', 'secret']) },
    { model: rng.pick(['demo:offline', 'nope:nope', null, 5]) },
    { message: { role: 'user', parts: [{ type: 'text', text: rng.pick(UNICODE) }] } },
    { trigger: rng.pick(['submit', 'edit', 'regenerate', 'nope']) },
    {
      trigger: 'edit',
      message: { id: rng.pick(ids), role: 'user', parts: [{ type: 'text', text: 'x' }] },
    },
    {
      action: rng.pick(['increment', 'reset', 'constructor', '__proto__', 'toString']),
      version: rng.pick([0, 1, -1, 1.5]),
      args: rng.pick([{}, { by: 2 }, { by: 'x' }, []]),
    },
    { name: rng.pick(UNICODE) },
    { title: 'x'.repeat(rng.pick([199, 200, 201, 20_000])) },
  ];
  const body = (): Buffer | undefined => {
    const kind = rng.next();
    if (kind < 0.45) return Buffer.from(JSON.stringify(rng.pick(validBodies())));
    if (kind < 0.75) return Buffer.from(rng.pick(HOSTILE_JSON));
    if (kind < 0.8) return Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0xc0, 0xaf]);
    if (kind < 0.85)
      return Buffer.from(JSON.stringify({ title: 'x'.repeat(rng.pick([70_000, 1_100_000])) }));
    if (kind < 0.9) return Buffer.alloc(0);
    return undefined;
  };
  const path = (): string => {
    if (rng.chance(0.15)) return rng.pick(unknownPaths);
    const route = rng.pick(API_ROUTES);
    const filled = route.path
      .replace(
        '{id}',
        route.path.startsWith('/api/tokens')
          ? rng.pick(['AAAAAAAAAAAAAAAAAAAAAA', ...ids])
          : rng.chance(0.5)
            ? rng.pick([privateId, publicId])
            : rng.pick(ids),
      )
      .replace('{toolCallId}', rng.chance(0.5) ? toolCallId : rng.pick(['call_0', ...ids]));
    return filled + rng.pick(queries);
  };

  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  const one = async () => {
    const method = rng.pick(methods);
    const headers: Record<string, string> = { host: rng.pick(hosts) };
    const cookie = rng.pick(cookies);
    if (cookie) headers.cookie = cookie;
    const authorization = rng.pick(authorizations);
    if (authorization) headers.authorization = authorization;
    const from = rng.pick(origins);
    if (from) headers.origin = from;
    if (rng.chance(0.8))
      headers['content-type'] = rng.pick([
        'application/json',
        'text/plain',
        'application/json; charset=utf-16',
      ]);
    const target = path();
    // Rotating the owner's key would lock the rest of the run out of the owner's sessions.
    if (target.startsWith('/api/identity') && headers.cookie?.includes(owner)) {
      headers.cookie = stranger;
    }
    const request: Sent = {
      method,
      path: target,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : body(),
    };
    const answer = await send(base, request);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const problem = judge(request, answer);
    if (problem)
      failures.push(
        `${problem}: ${request.method} ${request.path.slice(0, 120)} → ${answer.status} ${answer.body.slice(0, 200)}`,
      );
  };
  const worker = async () => {
    while (sent < REQUESTS) {
      sent += 1;
      await one();
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  console.log('fuzz statuses:', Object.fromEntries([...statuses].sort(([a], [b]) => a - b)));
  expect(failures.slice(0, 20)).toEqual([]);
  // The run reached the handlers, not just the edge: successes and each kind of refusal.
  for (const status of [200, 201, 400, 401, 403, 404, 405, 413]) {
    expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  }
});

/** What is wrong with an answer, if anything. */
function judge(sent: Sent, answer: Answer): string | undefined {
  if (answer.status >= 500) return 'a 5xx';
  // Next itself answers a path with repeated slashes, before any code of ours runs, with a
  // redirect to the path without them; that path then answers as any other.
  if (answer.status === 308) {
    const location = String(answer.headers.location);
    return sent.path.includes('//') && !location.includes('//') ? undefined : 'a stray redirect';
  }
  if (!sent.path.startsWith('/api') || sent.method === 'HEAD') return undefined;
  // Next refuses a method no route module can export (PROPFIND) with an empty 400 before any
  // code of ours runs, on the paths that skip the proxy (see proxy.ts): plain segments once the
  // URL is parsed, which takes `%2e%2e` for `..` (`/api/sessions/%2e%2e/stop` is `/api/stop`).
  const unknownMethod = !(ROUTE_METHODS as readonly string[]).includes(sent.method);
  const skipsProxy = /^\/api(?:\/[^%/]+)+$/.test(new URL(sent.path, 'http://localhost').pathname);
  if (unknownMethod && skipsProxy && answer.status === 400 && answer.body === '') return undefined;
  if (
    answer.status === 204 ||
    String(answer.headers['content-type']).startsWith('text/event-stream')
  ) {
    return undefined;
  }
  let json: { error?: { code?: unknown; message?: unknown } };
  try {
    json = JSON.parse(answer.body);
  } catch {
    return 'not JSON';
  }
  if (answer.status >= 400) {
    if (typeof json.error?.code !== 'string' || typeof json.error?.message !== 'string') {
      return 'no error code';
    }
  }
  return undefined;
}
