import 'server-only';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { databaseUrl, dataDir } from '../config';
import * as schema from './schema';

/** The query API both drivers share; queries are written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = { db: Db; driver: 'pglite' | 'postgres'; close(): Promise<void> };

const migrationsFolder = join(process.cwd(), 'lib', 'db', 'migrations');
// Any constant works; it only has to be the same for every instance of Quanta.
const MIGRATION_LOCK = 727_001;

/** Where the data lives: a PostgreSQL server, or an embedded PGlite in a data folder. */
export type DatabaseTarget = { url: string } | { directory: string };

/** The configured target: DATABASE_URL when set, else PGlite in the data folder. */
function configuredTarget(): DatabaseTarget {
  const url = databaseUrl();
  return url ? { url } : { directory: dataDir() };
}

export async function openDatabase(target = configuredTarget()): Promise<Database> {
  return 'url' in target ? openPostgres(target.url) : openPglite(join(target.directory, 'pglite'));
}

async function openPglite(directory: string): Promise<Database> {
  mkdirSync(directory, { recursive: true });
  const client = new PGlite(directory, {
    // PGlite's defaults size Postgres for a desktop; a chat app's working set is small.
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'work_mem=2MB'],
  });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, driver: 'pglite', close: () => client.close() };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closes (a restart, an administrator) is an 'error' on the
  // pool; unheard, it would end the process. The pool opens a new connection when next needed.
  pool.on('error', (error) => console.error('A PostgreSQL connection was closed:', error.message));
  // Two instances starting together must not both run a migration: the first takes the lock,
  // the second waits for it and then finds nothing left to do.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lockClient.release();
  }
  const db = drizzlePg(pool, { schema });
  return { db: db as unknown as Db, driver: 'postgres', close: () => pool.end() };
}

// Kept on globalThis so that Next's dev reloads reuse one database instead of opening another.
const shared = globalThis as typeof globalThis & { quantaDatabase?: Promise<Database> };

/** The app's database, opened and migrated once per process. */
export function getDatabase(): Promise<Database> {
  shared.quantaDatabase ??= openDatabase().catch((error) => {
    shared.quantaDatabase = undefined;
    throw error;
  });
  return shared.quantaDatabase;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
