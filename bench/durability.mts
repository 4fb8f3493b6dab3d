// What durable turns cost (issue 13): the delay a chunk takes from the model to a reader of the
// turn's feed, and the database writes per second of a turn, with the turn's log on, against
// the same turns with it off; PGlite and PostgreSQL, 1 and 50 turns at once.
// Run: flock /tmp/quanta-heavy.lock npx tsx --conditions=react-server bench/durability.mts
// (the condition lets lib/db/client load outside Next, as Next's server does; PostgreSQL is
// 127.0.0.1:5432, or BENCH_POSTGRES_URL, and is skipped with a note when it cannot be reached).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import pg from 'pg';
import { framedDeltas } from '@/lib/agent/delta-frames';
import { runTurn } from '@/lib/agent/run-turn';
import { type Database, openDatabase } from '@/lib/db/client';
import { saveTurnAnswer } from '@/lib/db/messages';
import { createSession } from '@/lib/db/sessions';
import { claimTurn, releaseTurn } from '@/lib/db/turns';
import { newId } from '@/lib/ids';
import { LOG_BATCH_MS, logToDatabase, turnRecorder } from '@/lib/turns/turn-recorder';
import { memoryServices } from '@/tests/helpers/tool-services';
import { toolSet } from '@/tools';
import { percentile } from './harness/stats';

/** Text deltas per turn, one every `PACE_MS` (50 a second): a turn streams for about 2.4 s. */
const DELTAS = 120;
const PACE_MS = 20;
const CONCURRENCY = [1, 50] as const;
/** Each configuration runs this many times, the configurations interleaved. */
const ROUNDS = 3;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const RESULTS = join('bench', 'results', 'durability.json');

type Mode = 'on' | 'off';
type Target = { name: 'PGlite' | 'PostgreSQL'; database: Database; sessions: string[] };
/** One turn's figures. */
type TurnFigures = {
  /** Milliseconds from each text delta's due time to the feed's reader receiving it. */
  delays: number[];
  /** Milliseconds from the first delta's due time to the turn logged and stored. */
  durationMs: number;
  logWrites: number;
  /** Saves after each step that calls tools and at the end. */
  stepSaves: number;
};

/** A model that streams `DELTAS` words at a fixed pace, noting when each was due. */
function pacedModel(due: number[]) {
  return new MockLanguageModelV3({
    doStream: async () => {
      const parts: LanguageModelV3StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...Array.from({ length: DELTAS }, (_, i) => ({
          type: 'text-delta' as const,
          id: 't',
          delta: `w${i} `,
        })),
        { type: 'text-end', id: 't' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: DELTAS, text: DELTAS, reasoning: 0 },
          },
        },
      ];
      let next = 0;
      const start = performance.now();
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          const part = parts[next++] as LanguageModelV3StreamPart;
          if (part.type === 'text-delta') {
            // A provider's chunks come over the network at its pace whether or not this process
            // is busy: a delta is due at its time, and a late timer is delay the reader sees.
            const at = start + (due.length + 1) * PACE_MS;
            await new Promise((resolve) => setTimeout(resolve, at - performance.now()));
            due.push(at);
          }
          controller.enqueue(part);
          if (next === parts.length) controller.close();
        },
      });
      return { stream };
    },
  });
}

const OWNER = 'bench';
/** How many answers each session holds: the next goes at that position. */
const answers = new Map<string, number>();

/** One turn through runTurn and the recorder, as the turn service wires them. */
async function turn(target: Target, sessionId: string, mode: Mode): Promise<TurnFigures> {
  const { db } = target.database;
  const figures: TurnFigures = {
    delays: [],
    durationMs: 0,
    logWrites: 0,
    stepSaves: 0,
  };
  const due: number[] = [];
  const turnId = newId();
  // Each turn's answer after the one before, saved under the turn's mark, as the service does.
  const position = answers.get(sessionId) ?? 0;
  answers.set(sessionId, position + 1);
  if (!(await claimTurn(db, { sessionId, ownerId: OWNER, turnId }))) {
    throw new Error(`session ${sessionId} is held by another turn`);
  }
  const writeLog = logToDatabase(db, sessionId, turnId);
  const recorder = turnRecorder({
    // No reader follows these turns from another instance: a batch a second. Each database as it
    // is deployed: PGlite alone, PostgreSQL among instances, with a Redis.
    logBatchMs: LOG_BATCH_MS,
    followedElsewhere: target.name === 'PostgreSQL',
    writeLog:
      mode === 'on'
        ? (from, chunks) => {
            figures.logWrites++;
            return writeLog(from, chunks);
          }
        : async () => {},
    save: async (message) => {
      figures.stepSaves++;
      const stored = await saveTurnAnswer(
        db,
        { sessionId, turnId },
        {
          id: message.id,
          position,
          role: 'assistant',
          parts: message.parts,
          metadata: message.metadata ?? null,
        },
      );
      return stored ? 'stored' : 'refused';
    },
  });
  const stream = await runTurn({
    // In frames, as every model resolveModel gives a turn.
    model: wrapLanguageModel({ model: pacedModel(due), middleware: framedDeltas() }),
    modelId: 'bench:paced',
    history: [{ id: newId(), role: 'user', parts: [{ type: 'text', text: 'write' }] }],
    messageId: newId(),
    toolSet,
    agentId: sessionId,
    sessionId,
    services: memoryServices(),
    maxSteps: 5,
    maxAnswerBytes: 1024 * 1024,
    maxToolInputBytes: 64 * 1024,
    maxWidgetDataBytes: 256 * 1024,
    signal: new AbortController().signal,
    onStep: recorder.onStep,
    onEnd: recorder.onEnd,
  });
  const reading = (async () => {
    let delta = 0;
    const reader = recorder.feed.read().getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (read.value.type !== 'text-delta') continue;
      // A frame joins several of the model's deltas (one word each): each waited until now.
      for (const _word of read.value.delta.trim().split(' ')) {
        figures.delays.push(performance.now() - (due[delta++] as number));
      }
    }
  })();
  // As the turn service does: the feed ends once the turn is logged and stored.
  await recorder.record(stream);
  await releaseTurn(db, sessionId, turnId);
  figures.durationMs = performance.now() - (due[0] as number);
  recorder.feed.end();
  await reading;
  return figures;
}

const median = (values: number[]) => percentile(values, 50);

type Result = {
  database: Target['name'];
  turns: number;
  mode: Mode;
  chunks: number;
  p50DelayMs: number;
  p99DelayMs: number;
  medianTurnMs: number;
  /**
   * This process's CPU time per turn (median over the rounds): the app's share, and with PGlite
   * the database's too; a PostgreSQL server's own work is not in it.
   */
  cpuMsPerTurn: number;
  /** Per turn, medians over the turns: every kind of write, then each kind. */
  writesPerSecond: number;
  logWritesPerSecond: number;
  stepSavesPerSecond: number;
};

/** A configuration's turns over all rounds, and each round's CPU time per turn. */
type Runs = { turns: TurnFigures[]; cpuMsPerTurn: number[] };

function summarise(
  database: Target['name'],
  turns: number,
  mode: Mode,
  { turns: runs, cpuMsPerTurn }: Runs,
): Result {
  const delays = runs.flatMap((run) => run.delays);
  const perSecond = (count: (run: TurnFigures) => number) =>
    median(runs.map((run) => count(run) / (run.durationMs / 1000)));
  return {
    database,
    turns,
    mode,
    chunks: delays.length,
    p50DelayMs: percentile(delays, 50),
    p99DelayMs: percentile(delays, 99),
    medianTurnMs: median(runs.map((run) => run.durationMs)),
    cpuMsPerTurn: median(cpuMsPerTurn),
    writesPerSecond: perSecond((run) => run.logWrites + run.stepSaves),
    logWritesPerSecond: perSecond((run) => run.logWrites),
    stepSavesPerSecond: perSecond((run) => run.stepSaves),
  };
}

async function openPglite(folder: string): Promise<Target> {
  return withSessions('PGlite', await openDatabase({ directory: folder }));
}

/** A database of the bench's own on the server, or undefined when the server is away. */
async function openPostgres(name: string): Promise<Target | undefined> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    console.log(`PostgreSQL skipped (${POSTGRES_URL}): ${(error as Error).message}`);
    return undefined;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return withSessions('PostgreSQL', await openDatabase({ url: url.href }));
}

async function dropPostgres(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.end();
}

/** Each concurrent turn in a session of its own, as one session runs one turn at a time. */
async function withSessions(name: Target['name'], database: Database): Promise<Target> {
  const sessions: string[] = [];
  for (let i = 0; i < Math.max(...CONCURRENCY); i++) {
    sessions.push((await createSession(database.db, { ownerId: OWNER })).id);
  }
  return { name, database, sessions };
}

const began = performance.now();
const folder = mkdtempSync(join(tmpdir(), 'quanta-durability-'));
const postgresName = `quanta_bench_durability_${process.pid}`;
const targets = [await openPglite(folder)];
const postgres = await openPostgres(postgresName);
if (postgres) targets.push(postgres);

try {
  // Warm up every path (JIT, prepared statements, the tables' first pages) before measuring.
  for (const target of targets) {
    for (const mode of ['on', 'off'] as const)
      await turn(target, target.sessions[0] as string, mode);
  }
  const runs = new Map<string, Runs>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      for (const turns of CONCURRENCY) {
        // Alternating which mode goes first, so neither always runs on a warmer process.
        const modes: Mode[] = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const mode of modes) {
          const key = `${target.name}|${turns}|${mode}`;
          const cpu = process.cpuUsage();
          const figures = await Promise.all(
            target.sessions.slice(0, turns).map((id) => turn(target, id, mode)),
          );
          const { user, system } = process.cpuUsage(cpu);
          const run = runs.get(key) ?? { turns: [], cpuMsPerTurn: [] };
          run.turns.push(...figures);
          run.cpuMsPerTurn.push((user + system) / 1000 / turns);
          runs.set(key, run);
        }
      }
    }
  }

  const results = [...runs].map(([key, run]) => {
    const [database, turns, mode] = key.split('|') as [Target['name'], string, Mode];
    return summarise(database, Number(turns), mode, run);
  });
  const comparisons = targets.flatMap((target) =>
    CONCURRENCY.map((turns) => {
      const find = (mode: Mode) =>
        results.find((r) => r.database === target.name && r.turns === turns && r.mode === mode);
      const on = find('on') as Result;
      const off = find('off') as Result;
      return {
        database: target.name,
        turns,
        addedP50DelayMs: on.p50DelayMs - off.p50DelayMs,
        addedP99DelayMs: on.p99DelayMs - off.p99DelayMs,
        p50Ratio: on.p50DelayMs / off.p50DelayMs,
        p99Ratio: on.p99DelayMs / off.p99DelayMs,
        turnRatio: on.medianTurnMs / off.medianTurnMs,
        cpuRatio: on.cpuMsPerTurn / off.cpuMsPerTurn,
        addedWritesPerSecond: on.writesPerSecond - off.writesPerSecond,
      };
    }),
  );

  // Right-aligned columns after the first; the first is left-aligned.
  const row = (cells: (string | number)[]) =>
    cells.map((cell, i) => (i === 0 ? String(cell).padEnd(11) : String(cell).padStart(9))).join('');
  const f = (value: number, digits = 2) => value.toFixed(digits);
  console.log(
    `${DELTAS} text deltas per turn, one every ${PACE_MS} ms; ${ROUNDS} rounds per configuration`,
  );
  console.log(
    row(['database', 'turns', 'log', 'chunks', 'p50 ms', 'p99 ms', 'turn ms', 'cpu ms']) +
      '  writes/s per turn (log + step)',
  );
  for (const r of results) {
    console.log(
      row([
        r.database,
        r.turns,
        r.mode,
        r.chunks,
        f(r.p50DelayMs),
        f(r.p99DelayMs),
        f(r.medianTurnMs, 0),
        f(r.cpuMsPerTurn, 0),
      ]) +
        `  ${f(r.writesPerSecond, 1)} (${f(r.logWritesPerSecond, 1)} + ${f(r.stepSavesPerSecond, 1)})`,
    );
  }
  console.log('\nlog on against off (differences in ms, ratios ×)');
  console.log(row(['database', 'turns', '+p50', '+p99', 'p50 ×', 'p99 ×', 'turn ×', 'cpu ×']));
  for (const c of comparisons) {
    console.log(
      row([
        c.database,
        c.turns,
        f(c.addedP50DelayMs),
        f(c.addedP99DelayMs),
        f(c.p50Ratio),
        f(c.p99Ratio),
        f(c.turnRatio),
        f(c.cpuRatio),
      ]),
    );
  }
  mkdirSync(join('bench', 'results'), { recursive: true });
  const setup = { deltas: DELTAS, paceMs: PACE_MS, rounds: ROUNDS, concurrency: CONCURRENCY };
  writeFileSync(RESULTS, `${JSON.stringify({ setup, results, comparisons }, null, 2)}\n`);
  const seconds = ((performance.now() - began) / 1000).toFixed(0);
  console.log(`\nwritten to ${RESULTS} (${seconds} s in all)`);
} finally {
  for (const target of targets) await target.database.close();
  rmSync(folder, { recursive: true, force: true });
  if (postgres) await dropPostgres(postgresName);
}
