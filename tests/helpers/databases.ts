import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { type Database, openDatabase } from '@/lib/db/client';
import { emptyPostgresDatabase } from './postgres';

export type DriverName = Database['driver'];

const postgresUrl = process.env.DATABASE_URL;
if (!postgresUrl) {
  console.warn('DATABASE_URL is unset: the PostgreSQL runs of the database tests are skipped.');
}

/** A fresh, migrated database of the given kind; `drop` removes every trace of it. */
export async function freshDatabase(
  driver: DriverName,
): Promise<Database & { drop(): Promise<void> }> {
  if (driver === 'pglite') {
    const directory = mkdtempSync(join(tmpdir(), 'quanta-db-'));
    const database = await openDatabase({ directory });
    return {
      ...database,
      drop: async () => {
        await database.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  const empty = await emptyPostgresDatabase();
  const database = await openDatabase({ url: empty.url });
  return {
    ...database,
    drop: async () => {
      await database.close();
      await empty.drop();
    },
  };
}

/**
 * Runs a suite once against embedded PGlite and once against the real PostgreSQL of
 * DATABASE_URL (skipped, with a notice, when it is unset).
 */
export function describeEachDatabase(title: string, suite: (database: () => Database) => void) {
  for (const driver of ['pglite', 'postgres'] as const) {
    const run = driver === 'postgres' && !postgresUrl ? describe.skip : describe;
    run(`${title} [${driver}]`, () => {
      let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
      beforeAll(async () => {
        database = await freshDatabase(driver);
      }, 60_000);
      afterAll(async () => {
        await database?.drop();
      });
      suite(() => database as Database);
    });
  }
}
