// Start-up time and idle resident memory of `next start` on a new, empty database: embedded
// PGlite in a new data folder, and PostgreSQL in a new database of the bench's own next to the
// one BENCH_POSTGRES_URL names (postgres://postgres@127.0.0.1:5432/postgres unless set; skipped
// with a note when unreachable). Run after `npm run build`: npx tsx bench/server-memory.mts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyPostgresDatabase, type OwnDatabase } from '../tests/helpers/postgres';
import { idleResidentMiB, timedStart } from './harness/servers';
import { percentile } from './harness/stats';

const ROUNDS = 5;
const POSTGRES_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Round = { firstOk: number; firstStored: number; rss: number };

/**
 * Milliseconds from spawning `next start` to the first 200 of GET / and to the first 200 of an
 * answer read from the database (`GET /api/sessions` with the cookie GET / gave), then idle RSS
 * in MiB. Redis is off in both modes; `DATABASE_URL` empty means PGlite.
 */
async function measure(databaseUrl: string): Promise<Round> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
  const { server, firstOkMs, firstStoredMs } = await timedStart({
    QUANTA_DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: '',
  });
  try {
    const firstStored = await firstStoredMs();
    return { firstOk: firstOkMs, firstStored, rss: await idleResidentMiB(server.pid) };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresRound(): Promise<Round> {
  const database: OwnDatabase = await emptyPostgresDatabase('quanta_bench', POSTGRES_URL);
  try {
    return await measure(database.url);
  } finally {
    await database.drop();
  }
}

let postgresReachable = true;
try {
  await (await emptyPostgresDatabase('quanta_bench', POSTGRES_URL)).drop();
} catch (error) {
  postgresReachable = false;
  console.log(`PostgreSQL at ${POSTGRES_URL} unreachable (${(error as Error).message}): skipped`);
}
const results: Record<'PGlite' | 'PostgreSQL', Round[]> = { PGlite: [], PostgreSQL: [] };
// Interleaved, so that other work on the machine weighs on both alike.
for (let round = 0; round < ROUNDS; round++) {
  results.PGlite.push(await measure(''));
  if (postgresReachable) results.PostgreSQL.push(await postgresRound());
}
for (const [mode, rounds] of Object.entries(results)) {
  if (rounds.length === 0) continue;
  const range = (values: number[], digits: number) =>
    `${percentile(values, 50).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–` +
    `${Math.max(...values).toFixed(digits)})`;
  console.log(
    `${mode}: first 200 of GET / ${range(
      rounds.map((round) => round.firstOk),
      0,
    )} ms after spawning next start on a new database, of GET /api/sessions ${range(
      rounds.map((round) => round.firstStored),
      0,
    )} ms, idle RSS ${range(
      rounds.map((round) => round.rss),
      1,
    )} MiB (medians, and range, of ${rounds.length} starts)`,
  );
}
