import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client';
import { readCookie } from '../http/cookies';
import { newId } from '../ids';
import { apiTokenOwner } from './api-tokens';
import { secret } from './secret';

export const IDENTITY_COOKIE = 'quanta_id';

/** The browser's identity cookie for `ownerId`: the owner id and an HMAC of it. */
export function cookieFor(ownerId: string): string {
  return `${ownerId}.${mac(ownerId)}`;
}

/** The owner id a cookie proves, or undefined when it was not signed with our secret. */
export function ownerOf(cookie: string | undefined | null): string | undefined {
  if (!cookie) return undefined;
  const dot = cookie.indexOf('.');
  if (dot <= 0) return undefined;
  const ownerId = cookie.slice(0, dot);
  const given = Buffer.from(cookie.slice(dot + 1));
  const expected = Buffer.from(mac(ownerId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? ownerId : undefined;
}

export function newOwnerToken(): string {
  return cookieFor(newId());
}

function mac(ownerId: string): string {
  return createHmac('sha256', secret()).update(`owner:${ownerId}`).digest('base64url');
}

export type Identity = { ownerId: string; via: 'cookie' | 'bearer' };

/**
 * Who is asking: an `Authorization: Bearer` API token wins over the cookie; neither (or a
 * forged or revoked one) is nobody.
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
  const ownerId = ownerOf(readCookie(headers, IDENTITY_COOKIE));
  return ownerId ? { ownerId, via: 'cookie' } : undefined;
}
