import { createHash, createHmac } from 'node:crypto';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import * as rotateRoute from '@/app/api/identity/rotate/route';
import * as sessionRoute from '@/app/api/sessions/[id]/route';
import * as sessionsRoute from '@/app/api/sessions/route';
import * as tokenRoute from '@/app/api/tokens/[id]/route';
import * as tokensRoute from '@/app/api/tokens/route';
import { cookieFor } from '@/lib/auth/identity';
import { apiTokens } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { bearerFor, type Caller, params, request, useDatabase } from '@/tests/helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

/** A browser request carrying exactly this identity cookie (and any other headers). */
function withCookie(method: string, path: string, cookie: string, headers: HeadersInit = {}) {
  return new Request(`http://localhost${path}`, {
    method,
    headers: { host: 'localhost', origin: 'http://localhost', cookie, ...headers },
  });
}

async function createToken(caller: Caller, name = 'laptop script') {
  const response = await tokensRoute.POST(request('POST', '/api/tokens', caller, { name }));
  expect(response.status).toBe(201);
  return (await response.json()) as { token: { id: string; name: string }; bearer: string };
}

const listTokens = async (caller: Caller) =>
  (await (await tokensRoute.GET(request('GET', '/api/tokens', caller))).json()).tokens as {
    id: string;
    lastUsedAt: string | null;
  }[];

const listSessions = (caller: Caller) => sessionsRoute.GET(request('GET', '/api/sessions', caller));

/** The new identity cookie a rotation answer sets. */
function setCookie(response: Response): string {
  const match = /^quanta_id=([^;]+)/.exec(response.headers.get('set-cookie') ?? '');
  return decodeURIComponent(match?.[1] ?? '');
}

describeEachDatabase('API token routes', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller & { ownerId: string };
  beforeEach(() => {
    owner = { ownerId: newId() };
  });

  it('creates a token shown once, lists it without the token, and revokes it', async () => {
    const created = await createToken(owner);
    expect(created).toEqual({
      token: {
        id: expect.any(String),
        name: 'laptop script',
        createdAt: expect.any(String),
        lastUsedAt: null,
      },
      bearer: expect.stringMatching(/^qk_[A-Za-z0-9_-]{43}$/),
    });
    expect(await listTokens(owner)).toEqual([created.token]);

    const client = { bearer: created.bearer };
    expect((await listSessions(client)).status).toBe(200);

    const revoked = await tokenRoute.DELETE(
      request('DELETE', `/api/tokens/${created.token.id}`, owner),
      params({ id: created.token.id }),
    );
    expect(revoked.status).toBe(204);
    expect(await listTokens(owner)).toEqual([]);
    const refused = await listSessions(client);
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('unauthenticated');
  });

  it('stores only a hash of the token', async () => {
    const { token, bearer } = await createToken(owner);
    const rows = await database().db.select().from(apiTokens);
    const row = rows.find(({ id }) => id === token.id);
    expect(row?.tokenHash).toBe(createHash('sha256').update(bearer).digest('base64url'));
    expect(JSON.stringify(rows)).not.toContain(bearer.slice(3));
  });

  it('lists newest first and refuses a name that is missing or too long', async () => {
    const first = await createToken(owner, 'one');
    const second = await createToken(owner, 'two');
    expect((await listTokens(owner)).map(({ id }) => id)).toEqual([
      second.token.id,
      first.token.id,
    ]);
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 'a', extra: 1 }]) {
      const response = await tokensRoute.POST(request('POST', '/api/tokens', owner, body));
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe('invalid_input');
    }
  });

  it('notes when a token was last used, at most once a minute', async () => {
    const { token, bearer } = await createToken(owner);
    await listSessions({ bearer });
    const [used] = await listTokens(owner);
    expect(used?.lastUsedAt).toEqual(expect.any(String));
    await listSessions({ bearer });
    expect((await listTokens(owner))[0]?.lastUsedAt).toBe(used?.lastUsedAt);

    // A use more than a minute after the last one noted is noted again.
    const longAgo = new Date(Date.now() - 120_000);
    await database().db.update(apiTokens).set({ lastUsedAt: longAgo });
    await listSessions({ bearer });
    const [again] = await listTokens(owner);
    expect(new Date(again?.lastUsedAt ?? 0).getTime()).toBeGreaterThan(longAgo.getTime());
    expect(again?.id).toBe(token.id);
  });

  it('answers 404 for revoking someone else’s token or one that does not exist', async () => {
    const { token, bearer } = await createToken(owner);
    const stranger = { ownerId: newId() };
    for (const id of [token.id, newId(), 'not-an-id']) {
      const response = await tokenRoute.DELETE(
        request('DELETE', `/api/tokens/${id}`, stranger),
        params({ id }),
      );
      expect(response.status).toBe(404);
      expect((await response.json()).error).toEqual({
        code: 'not_found',
        message: 'No such token.',
      });
    }
    expect((await listSessions({ bearer })).status).toBe(200);
  });

  it('lets a token act as its owner only: another owner’s private session is not there', async () => {
    const other = { ownerId: newId() };
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', other, {}));
    const { id } = (await created.json()).session;
    const mine = await bearerFor(owner.ownerId);
    const read = await sessionRoute.GET(
      request('GET', `/api/sessions/${id}`, mine),
      params({ id }),
    );
    expect(read.status).toBe(404);
    const theirs = await bearerFor(other.ownerId);
    const own = await sessionRoute.GET(
      request('GET', `/api/sessions/${id}`, theirs),
      params({ id }),
    );
    expect(own.status).toBe(200);
  });

  it('no longer takes the cookie value as a bearer token', async () => {
    const cookie = cookieFor(owner.ownerId);
    expect((await listSessions(owner)).status).toBe(200);
    expect((await listSessions({ bearer: cookie })).status).toBe(401);
  });

  it('refuses a token managing tokens or the browser key (403)', async () => {
    const client = await bearerFor(owner.ownerId);
    const { token } = await createToken(owner);
    const answers = [
      await tokensRoute.POST(request('POST', '/api/tokens', client, { name: 'more' })),
      await tokensRoute.GET(request('GET', '/api/tokens', client)),
      await tokenRoute.DELETE(
        request('DELETE', `/api/tokens/${token.id}`, client),
        params({ id: token.id }),
      ),
      await rotateRoute.POST(request('POST', '/api/identity/rotate', client)),
    ];
    for (const response of answers) {
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe('cookie_required');
    }
    expect(await listTokens(owner)).toHaveLength(2);
  });

  it('refuses cookie requests from another origin (CSRF)', async () => {
    const evil = { ...owner, origin: 'https://evil.example' };
    const { token } = await createToken(owner);
    const answers = [
      await tokensRoute.POST(request('POST', '/api/tokens', evil, { name: 'mine now' })),
      await tokenRoute.DELETE(
        request('DELETE', `/api/tokens/${token.id}`, evil),
        params({ id: token.id }),
      ),
      await rotateRoute.POST(request('POST', '/api/identity/rotate', evil)),
    ];
    for (const response of answers) {
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe('cross_origin');
    }
    expect(await listTokens(owner)).toEqual([expect.objectContaining({ id: token.id })]);
  });

  it('refuses nobody with 401', async () => {
    expect((await tokensRoute.GET(request('GET', '/api/tokens'))).status).toBe(401);
    expect((await rotateRoute.POST(request('POST', '/api/identity/rotate'))).status).toBe(401);
  });

  it('treats a cookie that does not decode as absent, also beside an Authorization header', async () => {
    const broken = 'quanta_id=%E0%A4%A';
    const { bearer } = await bearerFor(owner.ownerId);
    const withToken = withCookie('GET', '/api/sessions', broken, {
      authorization: `Bearer ${bearer}`,
    });
    expect((await sessionsRoute.GET(withToken)).status).toBe(200);
    const withForgery = withCookie('GET', '/api/sessions', broken, {
      authorization: 'Bearer qk_forged',
    });
    expect((await sessionsRoute.GET(withForgery)).status).toBe(401);
    expect((await sessionsRoute.GET(withCookie('GET', '/api/sessions', broken))).status).toBe(401);
  });
});

describeEachDatabase('identity cookie rotation', (database) => {
  beforeAll(() => useDatabase(database()));
  let owner: Caller & { ownerId: string };
  beforeEach(() => {
    owner = { ownerId: newId() };
  });

  const rotate = (cookie: string) =>
    rotateRoute.POST(withCookie('POST', '/api/identity/rotate', `quanta_id=${cookie}`));

  it('still takes a cookie in the format issued before rotation existed', async () => {
    const legacy = `${owner.ownerId}.${createHmac('sha256', 'test-secret')
      .update(`owner:${owner.ownerId}`)
      .digest('base64url')}`;
    const response = await sessionsRoute.GET(
      withCookie('GET', '/api/sessions', `quanta_id=${legacy}`),
    );
    expect(response.status).toBe(200);
  });

  it('gives the same owner a new cookie and refuses the old one everywhere', async () => {
    const created = await sessionsRoute.POST(request('POST', '/api/sessions', owner, {}));
    const { id } = (await created.json()).session;
    const old = cookieFor(owner.ownerId);

    const rotated = await rotate(old);
    expect(rotated.status).toBe(204);
    const header = rotated.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=lax/i);
    expect(header).toMatch(/Path=\//);
    const fresh = setCookie(rotated);
    expect(fresh).not.toBe(old);

    const list = (cookie: string) =>
      sessionsRoute.GET(withCookie('GET', '/api/sessions', `quanta_id=${cookie}`));
    expect((await list(old)).status).toBe(401);
    const mine = await list(fresh);
    expect(mine.status).toBe(200);
    expect((await mine.json()).sessions).toEqual([expect.objectContaining({ id, isOwner: true })]);

    // Once more: only the newest cookie counts.
    const newest = setCookie(await rotate(fresh));
    expect((await list(fresh)).status).toBe(401);
    expect((await list(newest)).status).toBe(200);
    expect((await rotate(fresh)).status).toBe(401);
  });

  it('leaves the owner’s API tokens working', async () => {
    const client = await bearerFor(owner.ownerId);
    const old = cookieFor(owner.ownerId);
    expect((await rotate(old)).status).toBe(204);
    expect((await listSessions(client)).status).toBe(200);
  });

  it('refuses a cookie that claims a generation it was not signed for', async () => {
    const old = cookieFor(owner.ownerId);
    const [ownerId, mac] = old.split('.');
    const response = await sessionsRoute.GET(
      withCookie('GET', '/api/sessions', `quanta_id=${ownerId}.1.${mac}`),
    );
    expect(response.status).toBe(401);
  });
});
