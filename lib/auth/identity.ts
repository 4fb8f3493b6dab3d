import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client';
import { cookieGeneration, nextCookieGeneration } from '../db/identities';
import { readCookie } from '../http/cookies';
import { newId } from '../ids';
import { apiTokenOwner } from './api-tokens';
import { secret } from './secret';

export const IDENTITY_COOKIE = 'quanta_id';

/** How the identity cookie is set, wherever it is set. */
export function identityCookieOptions(secure: boolean) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure,
    path: '/',
    maxAge: 60 * 60 * 24 * 400,
  };
}

/**
 * The browser's identity cookie for `ownerId` at `generation`: the owner id and an HMAC of it.
 * Generation 0 keeps the format cookies had before rotation existed (`ownerId.mac`), so those
 * stay valid; a rotated cookie carries its generation (`ownerId.generation.mac`).
 */
export function cookieFor(ownerId: string, generation = 0): string {
  return generation === 0
    ? `${ownerId}.${mac(`owner:${ownerId}`)}`
    : `${ownerId}.${generation}.${mac(`owner:${ownerId}:${generation}`)}`;
}

/** The cookie of a new anonymous owner. */
export function newIdentityCookie(): string {
  return cookieFor(newId());
}

/** A new cookie for `ownerId`; from now on every earlier one is refused. */
export async function rotateCookie(db: Db, ownerId: string): Promise<string> {
  return cookieFor(ownerId, await nextCookieGeneration(db, ownerId));
}

// Owner ids are base64url, so neither the `.` between the fields nor the `:` in what is
// signed can occur in one: each signed string belongs to one owner and generation.
const COOKIE_PATTERN = /^([A-Za-z0-9_-]+)(?:\.([1-9][0-9]{0,8}))?\.[A-Za-z0-9_-]+$/;

/** The owner and generation a cookie names, when it is signed with our secret. */
type Signed = { ownerId: string; generation: number };

function signedBy(cookie: string | undefined): Signed | undefined {
  const match = cookie === undefined ? null : COOKIE_PATTERN.exec(cookie);
  if (!match) return undefined;
  const ownerId = match[1] as string;
  const generation = Number(match[2] ?? 0);
  const given = Buffer.from(cookie as string);
  const expected = Buffer.from(cookieFor(ownerId, generation));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { ownerId, generation };
}

/** Whether a signed cookie is of its owner's current generation (not rotated since). */
async function isCurrent(db: Db, { ownerId, generation }: Signed): Promise<boolean> {
  return (await cookieGeneration(db, ownerId)) === generation;
}

/** The owner a cookie proves now: signed with our secret, and of the owner's current generation. */
export async function cookieOwner(db: Db, cookie: string | undefined): Promise<string | undefined> {
  const signed = signedBy(cookie);
  return signed && (await isCurrent(db, signed)) ? signed.ownerId : undefined;
}

function mac(text: string): string {
  return createHmac('sha256', secret()).update(text).digest('base64url');
}

export type Identity = { ownerId: string; via: 'cookie' | 'bearer' };

/**
 * Who is asking: an `Authorization: Bearer` API token wins over the cookie; neither (or a
 * forged, revoked or rotated one) is nobody.
 */
export async function identify(
  db: Db,
  headers: Pick<Headers, 'get'>,
): Promise<Identity | undefined> {
  const authorization = headers.get('authorization');
  if (authorization) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const ownerId = bearer === undefined ? undefined : await apiTokenOwner(db, bearer);
    return ownerId ? { ownerId, via: 'bearer' } : undefined;
  }
  const ownerId = await cookieOwner(db, readCookie(headers, IDENTITY_COOKIE));
  return ownerId ? { ownerId, via: 'cookie' } : undefined;
}

/**
 * The identity cookie the proxy gives a page request that carries neither a bearer token nor
 * a current cookie (none yet, or a rotated one): a new anonymous owner's. `db` is opened only to
 * check a signed cookie's generation: a first visit does not wait for the database, as the first
 * page a fresh server shows would while its embedded database still opens.
 */
export async function cookieToIssue(
  db: () => Promise<Db>,
  headers: Pick<Headers, 'get' | 'has'>,
): Promise<string | undefined> {
  if (headers.has('authorization')) return undefined;
  const signed = signedBy(readCookie(headers, IDENTITY_COOKIE));
  return signed && (await isCurrent(await db(), signed)) ? undefined : newIdentityCookie();
}
