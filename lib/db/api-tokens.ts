import { and, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { newId } from '../ids';
import type { Db } from './client';
import { type ApiTokenRow, apiTokens } from './schema';

/** How stale `lastUsedAt` may be: a token in constant use costs one write a minute, not one a request. */
export const LAST_USED_PRECISION_MS = 60_000;

export async function insertApiToken(
  db: Db,
  token: { ownerId: string; name: string; tokenHash: string },
): Promise<ApiTokenRow> {
  const [row] = await db
    .insert(apiTokens)
    .values({ id: newId(), ...token })
    .returning();
  return row as ApiTokenRow;
}

/** The owner's tokens, newest first. */
export async function listApiTokens(db: Db, ownerId: string): Promise<ApiTokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.ownerId, ownerId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** Deletes the owner's token `id`; false when the owner has no such token. */
export async function deleteApiToken(db: Db, ownerId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.ownerId, ownerId)))
    .returning({ id: apiTokens.id });
  return deleted.length > 0;
}

/**
 * The owner of the token with this hash, if it exists (revoked tokens do not), noting that it
 * was used. The note is written only when the last one is older than LAST_USED_PRECISION_MS,
 * and the condition is in the update too, so instances using one token together write it once.
 */
export async function recordApiTokenUse(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: apiTokens.id, ownerId: apiTokens.ownerId, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, tokenHash));
  if (!row) return undefined;
  const staleBefore = new Date(Date.now() - LAST_USED_PRECISION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < staleBefore) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: new Date() })
      .where(
        and(
          eq(apiTokens.id, row.id),
          or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore)),
        ),
      );
  }
  return row.ownerId;
}
