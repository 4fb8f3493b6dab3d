import { createHmac, timingSafeEqual } from 'node:crypto';
import { newId } from '../ids';
import { secret } from './secret';

export const IDENTITY_COOKIE = 'quanta_id';

/**
 * An owner's token is their id and its HMAC: the same value is the browser's cookie and an
 * API client's bearer token, so a script can act as the person who copied it.
 */
export function tokenFor(ownerId: string): string {
  return `${ownerId}.${mac(ownerId)}`;
}

/** The owner id a token proves, or undefined when it was not signed with our secret. */
export function ownerOf(token: string | undefined | null): string | undefined {
  if (!token) return undefined;
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const ownerId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(ownerId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? ownerId : undefined;
}

export function newOwnerToken(): string {
  return tokenFor(newId());
}

function mac(ownerId: string): string {
  return createHmac('sha256', secret()).update(`owner:${ownerId}`).digest('base64url');
}

export type Identity = { ownerId: string; via: 'cookie' | 'bearer' };

/** Who is asking: a bearer token wins over the cookie; neither (or a forged one) is nobody. */
export function identify(headers: Headers, cookieToken: string | undefined): Identity | undefined {
  const authorization = headers.get('authorization');
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    const ownerId = ownerOf(match?.[1]);
    return ownerId ? { ownerId, via: 'bearer' } : undefined;
  }
  const ownerId = ownerOf(cookieToken);
  return ownerId ? { ownerId, via: 'cookie' } : undefined;
}
