import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { type Database, openDatabase } from '@/lib/db/client';

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

/** A new, empty database on the PostgreSQL server of DATABASE_URL. */
export async function emptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `quanta_test_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(postgresUrl as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
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
