import { resolve } from 'node:path';

/** Where the embedded database and the generated secret live when nothing else is configured. */
export function dataDir(): string {
  return resolve(process.env.QUANTA_DATA_DIR || '.data');
}

/** A PostgreSQL URL switches the app from embedded PGlite to a real server. */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}
