import { tokenFor } from '@/lib/auth/identity';
import type { Database } from '@/lib/db/client';

const origin = 'http://quanta.test';

/** Makes the route handlers use `database` (they otherwise open the app's own). */
export function useDatabase(database: Database): void {
  (globalThis as { quantaDatabase?: Promise<Database> }).quantaDatabase = Promise.resolve(database);
}

export type Caller = { ownerId?: string; via?: 'cookie' | 'bearer'; origin?: string };

/** A request as a browser (cookie + same origin) or an API client (bearer) would send it. */
export function request(
  method: string,
  path: string,
  caller: Caller = {},
  body?: unknown,
): Request {
  const headers = new Headers({ host: 'quanta.test' });
  if (caller.ownerId) {
    const token = tokenFor(caller.ownerId);
    if (caller.via === 'bearer') headers.set('authorization', `Bearer ${token}`);
    else headers.set('cookie', `other=1; quanta_id=${token}`);
  }
  if (method !== 'GET' && caller.via !== 'bearer') headers.set('origin', caller.origin ?? origin);
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
