import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { insertApiToken, recordApiTokenUse } from '../db/api-tokens';
import type { Db } from '../db/client';
import type { ApiTokenRow } from '../db/schema';

/** Marks a string as a Quanta API token, for people and for secret scanners. */
export const API_TOKEN_PREFIX = 'qk_';

// The prefix and 256 random bits: too many to guess, so an unsalted hash is enough to store.
const TOKEN_PATTERN = /^qk_[A-Za-z0-9_-]{43}$/;

function hash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * A new API token for `ownerId`. Only its hash is stored: `bearer` is the one time anybody
 * sees the token itself.
 */
export async function issueApiToken(
  db: Db,
  ownerId: string,
  name: string,
): Promise<{ bearer: string; row: ApiTokenRow }> {
  const bearer = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await insertApiToken(db, { ownerId, name, tokenHash: hash(bearer) });
  return { bearer, row };
}

/** The owner of an API token that exists now (a revoked one no longer does). */
export async function apiTokenOwner(db: Db, bearer: string): Promise<string | undefined> {
  return TOKEN_PATTERN.test(bearer) ? recordApiTokenUse(db, hash(bearer)) : undefined;
}
