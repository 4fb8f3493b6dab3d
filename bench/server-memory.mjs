// Start-up time and idle resident memory of `next start` on a new, empty database: embedded
// PGlite in a new data folder, and PostgreSQL in a new database of the bench's own on
// 127.0.0.1:5432 (BENCH_POSTGRES_URL to change it; skipped with a note when unreachable).
// Run after `npx next build`: node bench/server-memory.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const ROUNDS = 5;
const port = 3199;
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const nextBin = join('node_modules', 'next', 'dist', 'bin', 'next');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function rssOfTree(rootPid) {
  // The server and anything it spawned: sum the whole process group.
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Fields after the command name, which may itself hold spaces: state ppid pgrp ...
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== rootPid) continue;
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += Number(rss?.[1] ?? 0);
    } catch {}
  }
  return total / 1024;
}

/**
 * Milliseconds from spawning `next start` to the first 200 of GET / and to the first 200 of an
 * answer read from the database (`GET /api/sessions` with the cookie GET / gave), then idle RSS
 * in MiB.
 */
async function measure(env) {
  const started = performance.now();
  const server = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: 'ignore',
    detached: true,
  });
  const firstOk = async (path, headers) => {
    while (performance.now() - started < 60_000) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
        await response.arrayBuffer();
        if (response.status === 200) return { at: performance.now() - started, response };
      } catch {
        // Not listening yet.
      }
      await sleep(20);
    }
    throw new Error(`the server did not answer GET ${path} in 60 s`);
  };
  try {
    const page = await firstOk('/');
    const cookie = page.response.headers.get('set-cookie')?.split(';')[0] ?? '';
    const stored = await firstOk('/api/sessions', { cookie });
    await sleep(3000);
    const samples = [];
    for (let i = 0; i < 5; i++) {
      samples.push(rssOfTree(server.pid));
      await sleep(500);
    }
    return { firstOk: page.at, firstStored: stored.at, rss: median(samples) };
  } finally {
    process.kill(-server.pid, 'SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function run(url, statement) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function pgliteRound() {
  const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
  try {
    return await measure({ QUANTA_DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresRound() {
  const name = `quanta_bench_${Math.random().toString(36).slice(2, 10)}`;
  await run(postgresUrl, `create database ${name}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
  try {
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    return await measure({ QUANTA_DATA_DIR: dataDir, DATABASE_URL: url.toString(), REDIS_URL: '' });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await run(postgresUrl, `drop database if exists ${name} with (force)`);
  }
}

let postgresReachable = true;
try {
  await run(postgresUrl, 'select 1');
} catch (error) {
  postgresReachable = false;
  console.log(`PostgreSQL at ${postgresUrl} unreachable (${error.message}): skipped`);
}
const results = { PGlite: [], PostgreSQL: [] };
// Interleaved, so that other work on the machine weighs on both alike.
for (let round = 0; round < ROUNDS; round++) {
  results.PGlite.push(await pgliteRound());
  if (postgresReachable) results.PostgreSQL.push(await postgresRound());
}
for (const [mode, rounds] of Object.entries(results)) {
  if (rounds.length === 0) continue;
  const firstOk = rounds.map((round) => round.firstOk);
  const firstStored = rounds.map((round) => round.firstStored);
  const rss = rounds.map((round) => round.rss);
  const range = (values, digits) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–` +
    `${Math.max(...values).toFixed(digits)})`;
  console.log(
    `${mode}: first 200 of GET / ${range(firstOk, 0)} ms after spawning next start on a new ` +
      `database, of GET /api/sessions ${range(firstStored, 0)} ms, idle RSS ` +
      `${range(rss, 1)} MiB (medians, and range, of ${rounds.length} starts)`,
  );
}
