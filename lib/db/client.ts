import 'server-only';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { databaseUrl, dataDir } from '../config';
import { startPgliteThread } from './pglite-thread';
import * as schema from './schema';

/** The query API both drivers share; queries are written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = { db: Db; driver: 'pglite' | 'postgres'; close(): Promise<void> };

const migrationsFolder = join(process.cwd(), 'lib', 'db', 'migrations');
/**
 * A new PGlite database, migrated, as a tarball made once by `npm run build`
 * (scripts/make-pglite-template.mts): a new data folder is unpacked from it. Without it
 * (`next dev` before any build), PGlite runs initdb in the new folder instead.
 */
export const pgliteTemplate = join(process.cwd(), 'lib', 'db', 'pglite-template.tar');
// Any constant works; it only has to be the same for every instance of Quanta.
const MIGRATION_LOCK = 727_001;

/** Where the data lives: a PostgreSQL server, or an embedded PGlite in a data folder. */
export type DatabaseTarget = { url: string } | { directory: string };

/** The configured target: DATABASE_URL when set, else PGlite in the data folder. */
function configuredTarget(): DatabaseTarget {
  const url = databaseUrl();
  return url ? { url } : { directory: dataDir() };
}

/**
 * Opens and migrates the database. `onLost` hears of an embedded database whose thread died
 * after it opened (out of memory, say): it answers nothing more, and must be opened again.
 */
export async function openDatabase(
  target = configuredTarget(),
  onLost?: (error: Error) => void,
): Promise<Database> {
  return 'url' in target
    ? openPostgres(target.url)
    : openPglite(join(target.directory, 'pglite'), pgliteTemplate, onLost);
}

async function openPglite(
  directory: string,
  template: string,
  onLost?: (error: Error) => void,
): Promise<Database> {
  const { client, db } = await migratedPglite(directory, template, onLost);
  return { db, driver: 'pglite', close: () => client.close() };
}

async function migratedPglite(
  directory: string,
  template?: string,
  onLost?: (error: Error) => void,
) {
  const client = await startPgliteThread(directory, template, onLost);
  // Drizzle's driver calls only `query` and `transaction`, which the thread offers.
  const db = drizzlePglite(client as unknown as PGlite, { schema });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    // Closed, so that opening the folder again finds no other PGlite in it (a thread that died
    // meanwhile is closed already: the migration's error is the one to report).
    await client.close().catch(() => {});
    throw error;
  }
  return { client, db: db as unknown as Db };
}

/**
 * (Re)makes `pgliteTemplate`: a database opened as the app opens one, in a scratch folder,
 * dumped; written beside the template, then renamed onto it, so no reader sees half of one.
 */
export async function makePgliteTemplate(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'quanta-template-'));
  try {
    const { client } = await migratedPglite(scratch);
    // Everything written out to the tables' files: a folder unpacked from it replays no WAL.
    await client.query('checkpoint');
    const tarball = await client.dump();
    await client.close();
    writeFileSync(`${pgliteTemplate}.partial`, tarball);
    renameSync(`${pgliteTemplate}.partial`, pgliteTemplate);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
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
const shared = globalThis as typeof globalThis & {
  quantaDatabase?: Promise<Database>;
  quantaPrepare?: (database: Database) => Promise<void>;
};

/** The app's database, opened and migrated once per process (see `startDatabase`). */
export function getDatabase(): Promise<Database> {
  return startDatabase();
}

/**
 * Starts opening the app's database unless it is already open or opening. `prepare`, given once
 * (instrumentation.ts, at start-up), runs on every database opened before anyone else gets it:
 * should the opening or `prepare` fail, the next call opens it anew, and prepares it again;
 * should the embedded database's thread die later, it is opened and prepared again at once.
 */
export function startDatabase(prepare?: (database: Database) => Promise<void>): Promise<Database> {
  if (prepare) shared.quantaPrepare = prepare;
  if (shared.quantaDatabase) return shared.quantaDatabase;
  // Opened again at once: the preparation closes the turns that ran on the dead one, which can
  // store nothing more and would otherwise run on until a request came.
  const opening: Promise<Database> = openDatabase(configuredTarget(), (error) => {
    console.error('The database thread died; opening it again:', error.message);
    if (shared.quantaDatabase !== opening) return;
    shared.quantaDatabase = undefined;
    void startDatabase().catch(() => {});
  })
    .then(async (database) => {
      try {
        await shared.quantaPrepare?.(database);
      } catch (error) {
        await database.close();
        throw error;
      }
      return database;
    })
    .catch((error) => {
      if (shared.quantaDatabase === opening) shared.quantaDatabase = undefined;
      throw error;
    });
  shared.quantaDatabase = opening;
  return opening;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
