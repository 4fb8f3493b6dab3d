import { NextRequest } from 'next/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cookieFor, rotateCookie } from '@/lib/auth/identity';
import type { Database } from '@/lib/db/client';
import { newId } from '@/lib/ids';
import { proxy } from '@/proxy';
import { describeEachDatabase } from '../helpers/databases';
import { useDatabase } from '../helpers/routes';

process.env.QUANTA_SECRET = 'test-secret';

function send(path: string, headers: Record<string, string> = {}) {
  return proxy(
    new NextRequest(`http://localhost:3000${path}`, {
      headers: { host: 'localhost:3000', ...headers },
    }),
  );
}

/** The identity cookie the proxy set on its answer, if any. */
async function issued(path: string, headers: Record<string, string> = {}) {
  const header = (await send(path, headers)).headers.get('set-cookie');
  return header === null ? undefined : /^quanta_id=([^;]+)/.exec(header)?.[1];
}

describeEachDatabase('proxy: the identity cookie', (database) => {
  beforeAll(() => useDatabase(database()));

  it('gives a page request without a cookie a new identity', async () => {
    expect(await issued('/')).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
  });

  it('keeps a current cookie, also one from before rotation existed', async () => {
    expect(await issued('/', { cookie: `quanta_id=${cookieFor(newId())}` })).toBeUndefined();
  });

  it('replaces a cookie that was rotated elsewhere, or forged, or does not decode', async () => {
    const ownerId = newId();
    const old = cookieFor(ownerId);
    const current = await rotateCookie(database().db, ownerId);
    expect(await issued('/', { cookie: `quanta_id=${current}` })).toBeUndefined();
    for (const cookie of [old, `${ownerId}.forged`, '%E0%A4%A']) {
      const fresh = await issued('/', { cookie: `quanta_id=${cookie}` });
      expect(fresh).toBeDefined();
      expect(fresh?.startsWith(ownerId)).toBe(false);
    }
  });

  it('gives none to a request with a bearer token, nor to an API request', async () => {
    expect(await issued('/c/abc', { authorization: 'Bearer qk_anything' })).toBeUndefined();
    expect(await issued('/api/sessions')).toBeUndefined();
    expect(
      await issued('/api/sessions', { cookie: `quanta_id=${newId()}.forged` }),
    ).toBeUndefined();
  });

  describe('while the database opens', () => {
    const shared = globalThis as { quantaDatabase?: Promise<Database> };
    afterEach(() => useDatabase(database()));

    it('gives a first visit its identity without waiting for it', async () => {
      shared.quantaDatabase = new Promise<Database>(() => {});
      expect(await issued('/')).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
      expect(await issued('/', { cookie: 'quanta_id=forged.cookie' })).toBeDefined();
    });

    it('waits for it to check a signed cookie', async () => {
      let open: (opened: Database) => void = () => {};
      shared.quantaDatabase = new Promise<Database>((resolve) => {
        open = resolve;
      });
      let answered = false;
      const answer = issued('/', { cookie: `quanta_id=${cookieFor(newId())}` }).then((cookie) => {
        answered = true;
        return cookie;
      });
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBe(false);
      open(database());
      expect(await answer).toBeUndefined();
    });
  });
});
