import { eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { identities } from './schema';

/** The generation of the owner's identity cookie: 0 until it is first rotated. */
export async function cookieGeneration(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ generation: identities.generation })
    .from(identities)
    .where(eq(identities.ownerId, ownerId));
  return row?.generation ?? 0;
}

/** Moves the owner's cookie to the next generation, in one statement, and returns it. */
export async function nextCookieGeneration(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .insert(identities)
    .values({ ownerId, generation: 1 })
    .onConflictDoUpdate({
      target: identities.ownerId,
      set: { generation: sql`${identities.generation} + 1`, rotatedAt: sql`now()` },
    })
    .returning({ generation: identities.generation });
  return (row as { generation: number }).generation;
}
