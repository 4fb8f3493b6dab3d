// Promises a server creates to start a turn and to relay a token: Quanta, the bare route and
// the bare route's pass-through. Every stream a chunk crosses costs promises, and on Node 20
// every promise pays for the hooks of Next's AsyncLocalStorage; unlike CPU time, the count moves
// by under 1% from run to run, so a change's effect shows without the machine's noise. Run after
// `npm run build` and `npx next build bench/bare-route`:
//   npx tsx bench/promises.mts
// Each server runs with a promise hook preloaded (bench/harness/count-promises.cjs), which slows
// it: these servers are for counting only. Per turn: a 1-token answer; per token: a 300-token
// answer at the bench's pace (one token every 10 ms, about 100 frames of Quanta's), less a turn,
// per token. Each after two warm-up turns, one at a time.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NextServer } from '../tests/helpers/next-server';
import { bareRoute, MODEL, newSessions, passThrough, quanta, type Target } from './harness/clients';
import { type Ask, startScriptedModel } from './harness/scripted-model';
import { freePort, settle, startNext, tokenOn } from './harness/servers';

const PACE_MS = 10;
const TURN: Ask = { tokens: 1, paceMs: PACE_MS };
const LONG: Ask = { tokens: 300, paceMs: PACE_MS };

const countDir = mkdtempSync(join(tmpdir(), 'quanta-promises-'));
const counted = (name: string) => ({
  NODE_OPTIONS: `--require ${join(import.meta.dirname, 'harness', 'count-promises.cjs')}`,
  BENCH_PROMISE_COUNT_FILE: join(countDir, name),
});

/** The promises `server` has created so far: it writes the count afresh when signalled. */
async function promisesOf(server: NextServer, name: string): Promise<number> {
  const file = join(countDir, name);
  await settle([server.pid]);
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGUSR2');
  for (let wait = 0; wait < 50; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (existsSync(file)) return Number(readFileSync(file, 'utf8'));
  }
  throw new Error(`${name} wrote no count in 5 s: is bench/harness/count-promises.cjs loaded?`);
}

const model = await startScriptedModel();
const bare = await startNext({
  port: await freePort(),
  app: 'bench/bare-route',
  env: { OPENAI_COMPATIBLE_BASE_URL: model.baseURL, BENCH_MODEL: MODEL, ...counted('bare') },
});
const server = await startNext({
  port: await freePort(),
  env: {
    OPENAI_COMPATIBLE_BASE_URL: model.baseURL,
    OPENAI_COMPATIBLE_MODELS: MODEL,
    QUANTA_DEFAULT_MODEL: `local:${MODEL}`,
    ...counted('quanta'),
  },
});
const client = { url: server.url, bearer: await tokenOn(server) };
const sessions = await newSessions(client, 6);
const places: { name: string; target: Target; server: NextServer; file: string }[] = [
  { name: 'bare route', target: bareRoute(bare.url), server: bare, file: 'bare' },
  { name: 'pass-through', target: passThrough(bare.url), server: bare, file: 'bare' },
  { name: 'Quanta', target: quanta(client, sessions), server, file: 'quanta' },
];
console.log('place | promises per turn | per relayed token');
try {
  for (const { name, target, server, file } of places) {
    for (let i = 0; i < 2; i++) await target(TURN);
    const before = await promisesOf(server, file);
    const turn = await target(TURN);
    const afterTurn = await promisesOf(server, file);
    const long = await target(LONG);
    const afterLong = await promisesOf(server, file);
    if (!turn.ok || !long.ok)
      throw new Error(`${name}: ${turn.ok ? '' : turn.error} ${long.ok ? '' : long.error}`);
    const perTurn = afterTurn - before;
    const perToken = (afterLong - afterTurn - perTurn) / (LONG.tokens - TURN.tokens);
    console.log(`${name} | ${perTurn} | ${perToken.toFixed(1)}`);
  }
} finally {
  await Promise.all([bare.stop(), server.stop()]);
  model.close();
}
