import { issueApiToken } from '@/lib/auth/api-tokens';
import { cookieFor } from '@/lib/auth/identity';
import { type Database, getDb } from '@/lib/db/client';

const origin = 'http://localhost';

/** Makes the route handlers use `database` (they otherwise open the app's own). */
export function useDatabase(database: Database): void {
  (globalThis as { quantaDatabase?: Promise<Database> }).quantaDatabase = Promise.resolve(database);
}

/**
 * Who sends a request: a browser (the identity cookie of `ownerId`, from `origin`), or, when
 * `bearer` is set, an API client with that token (see bearerFor).
 */
export type Caller = { ownerId?: string; origin?: string; bearer?: string };

/** An API client of `ownerId`, with a new API token stored in the database useDatabase set. */
export async function bearerFor(ownerId: string): Promise<Caller & { bearer: string }> {
  const { bearer } = await issueApiToken(await getDb(), ownerId, 'test');
  return { ownerId, bearer };
}

/** A request as a browser (cookie + same origin) or an API client (bearer) would send it. */
export function request(
  method: string,
  path: string,
  caller: Caller = {},
  body?: unknown,
): Request {
  const headers = new Headers({ host: 'localhost' });
  if (caller.bearer) {
    headers.set('authorization', `Bearer ${caller.bearer}`);
  } else {
    if (caller.ownerId) headers.set('cookie', `other=1; quanta_id=${cookieFor(caller.ownerId)}`);
    if (method !== 'GET') headers.set('origin', caller.origin ?? origin);
  }
  if (body !== undefined) headers.set('content-type', 'application/json');
  return new Request(`${origin}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const params = <T extends Record<string, string>>(values: T) => ({
  params: Promise.resolve(values),
});
