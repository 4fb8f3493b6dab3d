// npm run bench: Quanta against its baselines, measured in the same run, in one table. Builds
// Quanta and bench/bare-route once (BENCH_SKIP_BUILD=1 uses the builds there are), starts the
// scripted model, and measures as bench/README.md describes. Prints the table and writes
// bench/results/<time>.json and bench/results/latest.json. All traffic stays on 127.0.0.1.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { NextServer } from '../tests/helpers/next-server';

// Through require: tsx gives a .mts file's imports of these helpers the wrong __dirname.
const { seedSessions } = createRequire(import.meta.url)(
  '../tests/helpers/seeded-sessions.ts',
) as typeof import('../tests/helpers/seeded-sessions');

import { emptyPostgresDatabase } from '../tests/helpers/postgres';
import {
  bareRoute,
  burst,
  direct,
  MODEL,
  newSessions,
  passThrough,
  type QuantaClient,
  quanta,
  replayed,
  roundRobin,
  type Target,
} from './harness/clients';
import { type Figure, type Row, renderTable, type Unit } from './harness/report';
import { type Ask, askIn, startScriptedModel } from './harness/scripted-model';
import {
  cpuSpentOn,
  idleResidentMiB,
  pin,
  startBareRoute,
  timedStart,
  tokenOn,
} from './harness/servers';
import { percentile } from './harness/stats';
import { summarizeTimings, type Timing, type TimingSummary } from './harness/streams';

const root = resolve(import.meta.dirname, '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
/** Milliseconds between two tokens of the scripted model: 100 tokens a second unless set. */
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 10);
const POSTGRES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// One turn: a short answer, as most are. Whole turns are compared with it too.
const TURN: Ask = { tokens: 40, paceMs: PACE_MS };
const ROUNDS = 20;
const WARM_UP = 3;
// CPU: a turn whose answer is one token is the cost of starting (and ending) a turn; a long
// answer less that is the cost of relaying its tokens.
const START: Ask = { tokens: 1, paceMs: PACE_MS };
const START_TURNS = 20;
const LONG: Ask = { tokens: 1000, paceMs: PACE_MS };
const LONG_TURNS = 5;
/** Rounds of the long turns: one round's ratio moved by ±0.07 from run to run. */
const LONG_ROUNDS = 3;
// Many at once: every turn asked in the same instant, each a second of answer at the pace.
const CROWD: Ask = { tokens: 50, paceMs: PACE_MS };
const CROWD_ROUNDS = 2;
// Compaction: three long answers make a history past the budget; a fourth turn follows.
const CONTEXT_BUDGET = 2_000;
const HISTORY: Ask = { tokens: 1_000, paceMs: 0 };

/**
 * Other benches, run after this one's own figures: their printed figures join the table
 * (see bench/README.md). `server`: the hook is given the URL of a Quanta this bench started.
 */
const HOOKS: {
  name: string;
  script: string;
  args: string[];
  server?: true;
  rows(output: string): void;
}[] = [
  {
    name: 'big session',
    script: 'bench/big-session.mts',
    args: ['5'],
    // Lines `messages | html | payload | interactive ms | longest ms | long tasks | layout shift |
    // longest task's CPU ms`.
    rows: (output) => {
      for (const line of output.split('\n')) {
        const cells = line.split(' | ');
        if (cells.length !== 8 || !/^[\d,]+$/.test(cells[0] as string)) continue;
        const count = (cells[0] as string).replace(',', '');
        const number = (cell: string | undefined) => Number.parseFloat(cell ?? '');
        // It prints KiB (1,024 bytes); the table's kB are 1,000.
        const kB = (cell: string | undefined) => (number(cell) * 1024) / 1000;
        const big = count === '1000';
        row(
          `${count}-message session: page HTML`,
          'kB',
          { name: 'Quanta', value: kB(cells[1]) },
          undefined,
          big ? { text: '< 300 kB', met: kB(cells[1]) < 300 } : undefined,
        );
        row(
          `${count}-message session: interactive`,
          'ms',
          { name: 'Quanta', value: number(cells[3]) },
          undefined,
          big ? { text: '< 1000 ms', met: number(cells[3]) < 1000 } : undefined,
        );
        row(
          `${count}-message session: longest long task`,
          'ms',
          { name: 'Quanta', value: number(cells[4]) },
          undefined,
          big ? { text: '≤ 50 ms', met: number(cells[4]) <= 50 } : undefined,
        );
        row(`${count}-message session: layout shift`, 'CLS', {
          name: 'Quanta',
          value: number(cells[6]),
        });
        row(`${count}-message session: longest task's main-thread CPU`, 'ms', {
          name: 'Quanta',
          value: number(cells[7]),
        });
      }
    },
  },
  {
    name: 'page view',
    script: 'bench/page-view.mts',
    args: ['3'],
    // Lines `chats | server CPU ms | requests | prefetches | longest task's CPU ms | the phone
    // drawer's longest task's CPU ms`: an owner with one chat is the baseline of one whose
    // sidebar is full.
    rows: (output) => {
      const lines = new Map(
        output
          .split('\n')
          .map((line) => line.split(' | '))
          .filter((cells) => cells.length === 6 && /^\d+$/.test(cells[0] as string))
          .map((cells) => [cells[0] as string, cells.slice(1).map((cell) => parseFloat(cell))]),
      );
      const [one, full] = [lines.get('1'), lines.get('101')];
      if (!one || !full) throw new Error('no page-view figures in its output');
      const measure = (what: string) => `page view, 101 chats in the sidebar: ${what}`;
      const pair = (cell: number): [Figure, Figure] => [
        { name: 'Quanta', value: full[cell] as number },
        { name: '1 chat', value: one[cell] as number },
      ];
      row(measure('server CPU'), 'ms', ...pair(0));
      row(measure('requests to the server'), 'requests', ...pair(1));
      row(measure("longest task's main-thread CPU"), 'ms', ...pair(3));
      row(measure("phone, opening the drawer: longest task's CPU"), 'ms', ...pair(4));
    },
  },
  {
    name: 'streaming long tasks',
    script: 'bench/streaming-long-tasks.mjs',
    args: [],
    server: true,
    rows: (output) => {
      const found = /long tasks \(over 50 ms\): (\d+), longest (\d+) ms/.exec(output);
      if (!found) throw new Error('no long-task figures in its output');
      const longest = Number(found[2]);
      row(
        '2,000-token code answer streaming: longest long task',
        'ms',
        { name: 'Quanta', value: longest },
        undefined,
        { text: '≤ 50 ms', met: longest <= 50 },
      );
    },
  },
];

const rows: Row[] = [];
const notes: string[] = [];
const figures: Record<string, unknown> = {};
const phases: Record<string, number> = {};
const runStarted = performance.now();

function log(message: string) {
  const seconds = ((performance.now() - runStarted) / 1000).toFixed(0).padStart(4);
  console.error(`[${seconds} s] ${message}`);
}

/** Runs one part of the bench; a part that fails leaves a note and the others still run. */
async function phase(name: string, work: () => Promise<void>): Promise<void> {
  log(name);
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    notes.push(`${name}: failed: ${(error as Error).stack ?? error}`);
    log(`${name}: failed: ${(error as Error).message}`);
  }
  phases[name] = Math.round(performance.now() - started);
}

function row(
  measure: string,
  unit: Unit,
  measured: Figure,
  baseline?: Figure,
  goal?: Row['goal'],
): void {
  rows.push({
    measure,
    unit,
    measured,
    ...(baseline ? { baseline } : {}),
    ...(goal ? { goal } : {}),
  });
}

/** The same ask to each target in turn, rotating who goes first, after a warm-up. */
async function interleaved(
  targets: Record<string, Target>,
  ask: Ask,
  rounds: number,
): Promise<Record<string, Timing[]>> {
  const names = Object.keys(targets);
  const timings: Record<string, Timing[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = -WARM_UP; round < rounds; round++) {
    const offset = (round + WARM_UP) % names.length;
    for (const name of [...names.slice(offset), ...names.slice(0, offset)]) {
      const timing = await (targets[name] as Target)(ask);
      if (round >= 0) timings[name]?.push(timing);
    }
  }
  return timings;
}

function checked(name: string, timings: Timing[]): TimingSummary {
  const summary = summarizeTimings(timings);
  if (summary.errors > 0) {
    notes.push(`${name}: ${summary.errors} errors, first: ${summary.firstError}`);
  }
  return summary;
}

function quantaEnv(baseURL: string): Record<string, string> {
  return {
    OPENAI_COMPATIBLE_BASE_URL: baseURL,
    OPENAI_COMPATIBLE_MODELS: MODEL,
    QUANTA_DEFAULT_MODEL: `local:${MODEL}`,
    // The per-owner limits protect a shared server from one owner; here one owner is the load.
    QUANTA_LIMIT_REQUESTS_PER_MINUTE: '1000000',
    QUANTA_LIMIT_TURNS_PER_MINUTE: '1000000',
    QUANTA_LIMIT_SESSIONS_PER_MINUTE: '1000000',
    QUANTA_LIMIT_CONCURRENT_TURNS: '10000',
    QUANTA_LIMIT_EVENT_STREAMS: '10000',
  };
}

async function clientOf(server: NextServer): Promise<QuantaClient> {
  return { url: server.url, bearer: await tokenOn(server) };
}

function build(args: string[]) {
  execFileSync(process.execPath, [nextBin, 'build', ...args], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
}

// --- The run -----------------------------------------------------------------------------

// A bench that hangs (a server that never answers) must not hold the machine: it gives up.
setTimeout(() => {
  console.error('The bench ran for 15 minutes: giving up.');
  process.exit(1);
}, 15 * 60_000).unref();

if (process.env.BENCH_SKIP_BUILD !== '1') {
  // `npm run build`: the PGlite template too, as a deployment builds it.
  await phase('build Quanta', async () => {
    execFileSync('npm', ['run', 'build'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    });
  });
  await phase('build the bare route', async () => build(['bench/bare-route']));
}
const model = await startScriptedModel();
const servers: NextServer[] = [];
const stopAll = async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
};

let pglite: NextServer | undefined;
let bare: NextServer | undefined;

await phase('fresh PGlite starts', async () => {
  const starts: number[] = [];
  const stored: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { server, firstOkMs, firstStoredMs } = await timedStart(quantaEnv(model.baseURL));
    starts.push(firstOkMs);
    stored.push(await firstStoredMs());
    if (i < 2) await server.stop();
    else pglite = server;
  }
  servers.push(pglite as NextServer);
  figures.freshStartMs = starts;
  figures.freshStartStoredMs = stored;
  row(
    'fresh PGlite start to first 200 (median of 3)',
    'ms',
    {
      name: 'Quanta',
      value: percentile(starts, 50),
    },
    undefined,
    { text: '< 1500 ms', met: percentile(starts, 50) < 1500 },
  );
  row('fresh PGlite start to first database answer (median of 3)', 'ms', {
    name: 'Quanta',
    value: percentile(stored, 50),
  });
  const rss = await idleResidentMiB((pglite as NextServer).pid);
  figures.idleRssPgliteMiB = rss;
  row('idle RSS, PGlite', 'MiB', { name: 'Quanta', value: rss }, undefined, {
    text: '< 300 MiB',
    met: rss < 300,
  });
  bare = await startBareRoute(model.baseURL, MODEL);
  servers.push(bare);
});

if (pglite && bare) {
  const q = pglite;
  const b = bare;
  const client = await clientOf(q);
  const directTarget = direct(model.baseURL);
  const bareTarget = bareRoute(b.url);

  await phase('one turn at a time', async () => {
    const sessions = await newSessions(client, ROUNDS + WARM_UP);
    const timings = await interleaved(
      { direct: directTarget, bare: bareTarget, quanta: quanta(client, sessions) },
      TURN,
      ROUNDS,
    );
    const [d, br, qu] = [
      checked('direct', timings.direct ?? []),
      checked('bare route', timings.bare ?? []),
      checked('Quanta', timings.quanta ?? []),
    ];
    figures.oneTurn = { ask: TURN, rounds: ROUNDS, direct: d, bare: br, quanta: qu };
    for (const [label, pick] of [
      ['first text', (s: TimingSummary) => s.firstText],
      ['whole turn', (s: TimingSummary) => s.total],
    ] as const) {
      for (const stat of ['p50', 'p99'] as const) {
        const directValue = { name: 'direct', value: pick(d)[stat] };
        const bareValue = { name: 'bare route', value: pick(br)[stat] };
        const quantaValue = { name: 'Quanta', value: pick(qu)[stat] };
        const measure = `${label} ${stat}, 1 turn`;
        // Issue 14's goals are on the median first text only.
        const goal = label === 'first text' && stat === 'p50';
        row(measure, 'ms', bareValue, directValue);
        row(
          measure,
          'ms',
          quantaValue,
          directValue,
          goal
            ? {
                text: '< +5 ms',
                met: quantaValue.value - directValue.value < 5,
              }
            : undefined,
        );
        row(
          measure,
          'ms',
          quantaValue,
          bareValue,
          goal
            ? {
                text: '≤ bare route',
                met: quantaValue.value <= bareValue.value,
              }
            : undefined,
        );
      }
    }
  });

  await phase('server CPU', async () => {
    const sessions = await newSessions(client, START_TURNS + LONG_TURNS * LONG_ROUNDS);
    const quantaTarget = quanta(client, sessions);
    // The pass-through is a route of the bare route's app: its CPU is measured on its own.
    const passThroughTarget = passThrough(b.url);
    const [bareStart, quantaStart] = await cpuSpentOn([b.pid, q.pid], async () => {
      for (let i = 0; i < START_TURNS; i++) {
        checked('bare route, CPU', [await bareTarget(START)]);
        checked('Quanta, CPU', [await quantaTarget(START)]);
      }
    });
    const [passThroughStart] = await cpuSpentOn([b.pid], async () => {
      for (let i = 0; i < START_TURNS; i++) {
        checked('pass-through, CPU', [await passThroughTarget(START)]);
      }
    });
    const longRounds: { bare: number; quanta: number }[] = [];
    let passThroughLong = 0;
    for (let round = 0; round < LONG_ROUNDS; round++) {
      const [bareMs, quantaMs] = await cpuSpentOn([b.pid, q.pid], async () => {
        // Both at once: each process's CPU is its own, and the run takes half as long.
        const [bareTimings, quantaTimings] = await Promise.all([
          burst(bareTarget, LONG, LONG_TURNS),
          burst(quantaTarget, LONG, LONG_TURNS),
        ]);
        checked('bare route, long answers', bareTimings);
        checked('Quanta, long answers', quantaTimings);
      });
      longRounds.push({ bare: bareMs as number, quanta: quantaMs as number });
      // The floor, once: it shares the bare route's process, so it takes a round of its own.
      if (round === 0) {
        [passThroughLong] = (await cpuSpentOn([b.pid], async () => {
          checked('pass-through, long answers', await burst(passThroughTarget, LONG, LONG_TURNS));
        })) as [number];
      }
    }
    const perTurn = (total: number) => total / START_TURNS;
    const perThousand = (long: number, start: number) =>
      ((long / LONG_TURNS - perTurn(start)) / (LONG.tokens - START.tokens)) * 1000;
    const figuresOf = (longs: number[], start: number) => ({
      perTurnMs: perTurn(start),
      per1000TokensMs: percentile(
        longs.map((long) => perThousand(long, start)),
        50,
      ),
    });
    const cpu = {
      bare: figuresOf(
        longRounds.map(({ bare }) => bare),
        bareStart as number,
      ),
      quanta: figuresOf(
        longRounds.map(({ quanta }) => quanta),
        quantaStart as number,
      ),
      passThrough: figuresOf([passThroughLong], passThroughStart as number),
    };
    figures.cpu = {
      start: START,
      long: LONG,
      startTurns: START_TURNS,
      longTurns: LONG_TURNS,
      longRoundsCpuMs: longRounds,
      passThroughLongCpuMs: passThroughLong,
      ...cpu,
    };
    row(
      'server CPU per turn (1-token answer)',
      'ms',
      { name: 'Quanta', value: cpu.quanta.perTurnMs },
      { name: 'bare route', value: cpu.bare.perTurnMs },
    );
    row(
      'server CPU per 1,000 relayed tokens',
      'ms',
      { name: 'Quanta', value: cpu.quanta.per1000TokensMs },
      { name: 'bare route', value: cpu.bare.per1000TokensMs },
      { text: '≤ 0.5×', met: cpu.quanta.per1000TokensMs <= cpu.bare.per1000TokensMs / 2 },
    );
    row(
      'server CPU per 1,000 relayed tokens',
      'ms',
      { name: 'pass-through', value: cpu.passThrough.per1000TokensMs },
      { name: 'bare route', value: cpu.bare.per1000TokensMs },
    );
  });

  await phase('50 at once, one instance (PGlite)', async () => {
    const sessions = await newSessions(client, 50 * CROWD_ROUNDS);
    const targets = { direct: directTarget, bare: bareTarget, quanta: quanta(client, sessions) };
    const timings: Record<string, Timing[]> = { direct: [], bare: [], quanta: [] };
    for (let round = 0; round < CROWD_ROUNDS; round++) {
      for (const [name, target] of Object.entries(targets)) {
        timings[name]?.push(...(await burst(target, CROWD, 50)));
      }
    }
    const [d, br, qu] = [
      checked('50 at once, direct', timings.direct ?? []),
      checked('50 at once, bare route', timings.bare ?? []),
      checked('50 at once, Quanta', timings.quanta ?? []),
    ];
    figures.fifty = { ask: CROWD, rounds: CROWD_ROUNDS, direct: d, bare: br, quanta: qu };
    for (const stat of ['p50', 'p99'] as const) {
      const directValue = { name: 'direct', value: d.firstText[stat] };
      row(
        `first text ${stat}, 50 at once`,
        'ms',
        { name: 'bare route', value: br.firstText[stat] },
        directValue,
      );
      const quantaValue = { name: 'Quanta', value: qu.firstText[stat] };
      row(
        `first text ${stat}, 50 at once`,
        'ms',
        quantaValue,
        directValue,
        stat === 'p99'
          ? { text: '< +100 ms', met: quantaValue.value - directValue.value < 100 }
          : undefined,
      );
    }
    row('errors, 50 at once', 'errors', { name: 'Quanta', value: qu.errors }, undefined, {
      text: '0',
      met: qu.errors === 0,
    });
  });

  await phase('first-load JavaScript', async () => {
    const printed = execFileSync(process.execPath, [join(root, 'bench/first-load-js.mjs'), q.url], {
      encoding: 'utf8',
    });
    figures.firstLoadJs = printed.trim().split('\n');
    for (const page of ['home', 'chat, answered']) {
      const match = new RegExp(
        `^${page}\\s+\\d+ scripts\\s+[\\d.]+ KiB raw\\s+([\\d.]+) KiB gzip`,
        'm',
      ).exec(printed);
      if (!match) throw new Error(`bench/first-load-js.mjs printed no ${page} line:\n${printed}`);
      const kB = (Number(match[1]) * 1024) / 1000;
      row(
        `${page} page first-load JS, gzip`,
        'kB',
        { name: 'Quanta', value: kB },
        undefined,
        page === 'home' ? undefined : { text: '< 250 kB', met: kB < 250 },
      );
    }
  });
}
await stopAll();

await phase('PostgreSQL + Redis: 200 at once on one and two instances', async () => {
  if (availableParallelism() < 2) throw new Error('one instance a core needs two cores');
  const database = await emptyPostgresDatabase('quanta_bench', POSTGRES_URL);
  try {
    const env = {
      ...quantaEnv(model.baseURL),
      DATABASE_URL: database.url,
      REDIS_URL,
      QUANTA_SECRET: randomBytes(32).toString('hex'),
    };
    const started = await Promise.all([timedStart(env), timedStart(env)]);
    const [a, b] = started.map(({ server }) => server) as [NextServer, NextServer];
    servers.push(a, b);
    const rss = await idleResidentMiB(a.pid);
    figures.idleRssPostgresMiB = rss;
    row('idle RSS, PostgreSQL', 'MiB', { name: 'Quanta', value: rss }, undefined, {
      text: '< 150 MiB',
      met: rss < 150,
    });
    // The identity and the sessions live in the shared database: either instance serves them.
    const onA = await clientOf(a);
    const onB = { url: b.url, bearer: onA.bearer };
    const sessions = await newSessions(onA, 2 * WARM_UP + 2 * 200 * CROWD_ROUNDS);
    for (const client of [onA, onB]) {
      for (let i = 0; i < WARM_UP; i++) checked('warm-up', [await quanta(client, sessions)(CROWD)]);
    }
    const alone = quanta(onA, sessions);
    const spread = roundRobin([quanta(onA, sessions), quanta(onB, sessions)]);
    const timings: Record<'direct' | 'one' | 'two', Timing[]> = { direct: [], one: [], two: [] };
    for (let round = 0; round < CROWD_ROUNDS; round++) {
      timings.direct.push(...(await burst(direct(model.baseURL), CROWD, 200)));
      // One instance, free to use every core; then one instance a core.
      pin(a.pid, `0-${availableParallelism() - 1}`);
      timings.one.push(...(await burst(alone, CROWD, 200)));
      pin(a.pid, '0');
      pin(b.pid, '1');
      timings.two.push(...(await burst(spread, CROWD, 200)));
    }
    const d = checked('200 at once, direct', timings.direct);
    const one = checked('200 at once, one instance', timings.one);
    const two = checked('200 at once, two instances', timings.two);
    figures.twoHundred = { ask: CROWD, rounds: CROWD_ROUNDS, direct: d, one, two };
    for (const stat of ['p50', 'p99'] as const) {
      const directValue = { name: 'direct', value: d.firstText[stat] };
      const oneValue = { name: '1 instance', value: one.firstText[stat] };
      const twoValue = { name: '2 instances', value: two.firstText[stat] };
      row(`first text ${stat}, 200 at once`, 'ms', oneValue, directValue);
      row(
        `first text ${stat}, 200 at once`,
        'ms',
        twoValue,
        directValue,
        stat === 'p99' ? { text: '< 500 ms', met: twoValue.value < 500 } : undefined,
      );
      row(`first text ${stat}, 200 at once`, 'ms', twoValue, oneValue);
    }
    row('errors, 200 at once', 'errors', { name: '1 instance', value: one.errors });
    row('errors, 200 at once', 'errors', { name: '2 instances', value: two.errors }, undefined, {
      text: '0',
      met: two.errors === 0,
    });
  } finally {
    await stopAll();
    await database.drop();
  }
});

await phase('a turn in a 1,000-message session', async () => {
  // Seeded straight into a new data folder (as the big-session e2e test does); the first turns
  // in each, the warm-up, include the 1,000-message session's one compaction.
  const secret = randomBytes(32).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-big-'));
  const seeded = seedSessions(dataDir, secret, [1000, 10]);
  const { server } = await timedStart({
    ...quantaEnv(model.baseURL),
    QUANTA_DATA_DIR: dataDir,
    QUANTA_SECRET: secret,
  });
  servers.push(server);
  const token = await fetch(`${server.url}/api/tokens`, {
    method: 'POST',
    headers: {
      cookie: `quanta_id=${seeded.cookie}`,
      origin: server.url,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ name: 'bench' }),
  });
  const { bearer } = (await token.json()) as { bearer: string };
  const client = { url: server.url, bearer };
  const turnsIn = (count: number) => {
    const id = seeded.sessions.find((session) => session.count === count)?.id as string;
    return quanta(client, Array<string>(1 + WARM_UP + ROUNDS).fill(id));
  };
  const [big, small] = [turnsIn(1000), turnsIn(10)];
  // A first turn in each: the big session's one compaction, and the requests the model is sent
  // (each later turn's has two messages more), replayed to it directly below.
  const mark = (await model.requests(0)).length;
  checked('first turns', [await big(TURN), await small(TURN)]);
  const [bigRequest, smallRequest] = (await model.requests(mark)).filter(({ messages }) =>
    askIn(JSON.stringify(messages.at(-1) ?? '')),
  );
  if (!bigRequest || !smallRequest) throw new Error('the scripted model missed a first turn');
  const timings = await interleaved(
    {
      big,
      small,
      bigAlone: replayed(model.baseURL, bigRequest),
      smallAlone: replayed(model.baseURL, smallRequest),
    },
    TURN,
    ROUNDS,
  );
  const summary = (name: string, key: string) => checked(name, timings[key] ?? []);
  const turns = {
    big: summary('1,000 messages', 'big'),
    small: summary('10 messages', 'small'),
    bigAlone: summary('the model alone, 1,000 messages', 'bigAlone'),
    smallAlone: summary('the model alone, 10 messages', 'smallAlone'),
    requestBytes: {
      big: Buffer.byteLength(JSON.stringify(bigRequest)),
      small: Buffer.byteLength(JSON.stringify(smallRequest)),
    },
  };
  figures.bigSessionTurn = turns;
  const ratio = turns.big.firstText.p50 / turns.small.firstText.p50;
  row(
    'first text p50, turn in 1,000 messages',
    'ms',
    { name: 'Quanta', value: turns.big.firstText.p50 },
    { name: '10 messages', value: turns.small.firstText.p50 },
    { text: '≤ 1.10×', met: ratio <= 1.1 },
  );
  row(
    'the same, over the model alone with the same request',
    'ms',
    { name: 'Quanta', value: turns.big.firstText.p50 - turns.bigAlone.firstText.p50 },
    { name: '10 messages', value: turns.small.firstText.p50 - turns.smallAlone.firstText.p50 },
  );
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

await phase('compaction', async () => {
  const { server } = await timedStart({
    ...quantaEnv(model.baseURL),
    QUANTA_CONTEXT_TOKENS: String(CONTEXT_BUDGET),
  });
  servers.push(server);
  const client = await clientOf(server);
  const [id] = await newSessions(client, 1);
  const turn = quanta(client, Array<string>(4).fill(id as string));
  for (let i = 0; i < 3; i++) checked('compaction, history', [await turn(HISTORY)]);
  const mark = (await model.requests(0)).length;
  checked('compaction, the turn past the budget', [await turn(TURN)]);
  const sent = (await model.requests(mark)).findLast(({ messages }) =>
    askIn(JSON.stringify(messages.at(-1) ?? '')),
  );
  if (!sent) throw new Error('the scripted model received no request for the last turn');
  // Tokens as Quanta counts them: about four characters each, the tools' definitions included.
  const sentTokens = JSON.stringify([sent.messages, sent.tools ?? []]).length / 4;
  const system = JSON.stringify(sent.messages[0] ?? '');
  const carriesSummary = system.includes('A summary of the conversation before');
  figures.compaction = { budget: CONTEXT_BUDGET, sentTokens, carriesSummary };
  row(
    'compaction: tokens sent (≈ characters / 4)',
    'tokens',
    { name: 'Quanta', value: sentTokens },
    {
      name: 'budget',
      value: CONTEXT_BUDGET,
    },
    {
      text: '≤ budget, with the summary',
      met: sentTokens <= CONTEXT_BUDGET && carriesSummary,
    },
  );
  await stopAll();
});
await stopAll();
model.close();

for (const hook of HOOKS) {
  await phase(hook.name, async () => {
    const server = hook.server
      ? (await timedStart(quantaEnv('http://127.0.0.1:9/v1'))).server
      : undefined;
    try {
      const ran = spawnSync(
        process.execPath,
        [...process.execArgv, join(root, hook.script), ...(server ? [server.url] : hook.args)],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 240_000,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      figures[hook.name] = { status: ran.status, output: ran.stdout.trim().split('\n') };
      if (ran.status !== 0)
        throw new Error(`${hook.script} exited with ${ran.status ?? ran.signal}`);
      hook.rows(ran.stdout);
    } finally {
      await server?.stop();
    }
  });
}

const table = renderTable(rows);
console.log(`\nQuanta bench, ${new Date().toISOString()}, model pace ${PACE_MS} ms a token\n`);
console.log(table);
for (const note of notes) console.log(`\n- ${note}`);
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
const results = {
  date: new Date().toISOString(),
  commit: commit.stdout.trim(),
  machine: { cpus: availableParallelism(), node: process.version },
  paceMs: PACE_MS,
  seconds: Math.round((performance.now() - runStarted) / 1000),
  phasesMs: phases,
  rows,
  notes,
  figures,
  table,
};
const folder = join(root, 'bench', 'results');
mkdirSync(folder, { recursive: true });
const json = `${JSON.stringify(results, null, 2)}\n`;
writeFileSync(join(folder, `${results.date.replaceAll(':', '-')}.json`), json);
writeFileSync(join(folder, 'latest.json'), json);
console.log(`\nWritten: bench/results/latest.json (${results.seconds} s in all)`);
