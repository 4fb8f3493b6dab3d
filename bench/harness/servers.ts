import { execFileSync } from 'node:child_process';
// tests/helpers/next-server and seeded-sessions find the repository from their __dirname, which
// tsx provides when a CommonJS (.ts) module imports them, not an ES one (.mts): the bench's
// scripts reach them through here.
import { freePort, type NextServer, newIdentity, startNext } from '../../tests/helpers/next-server';
import { cpuMs, residentMiB } from './proc';
import { percentile } from './stats';

export { seedSessions } from '../../tests/helpers/seeded-sessions';
export { freePort, startNext };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const START_TIMEOUT_MS = 120_000;

/**
 * Starts the built Quanta on a free port and times it from the spawn to the first `GET /`
 * answered 200 (asked every 10 ms, beside the helper's own wait, which takes any answer).
 * `firstStoredMs` then times it, from the same spawn, to the first answer read from its
 * database: `GET /api/sessions` with the cookie `GET /` gave (left to the callers that want it,
 * as the route it loads stays in the server's memory).
 */
export async function timedStart(env: Record<string, string>): Promise<{
  server: NextServer;
  firstOkMs: number;
  firstStoredMs(): Promise<number>;
}> {
  const port = await freePort();
  const started = performance.now();
  const firstOk = async (path: string, headers: Record<string, string> = {}) => {
    while (performance.now() - started < START_TIMEOUT_MS) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers,
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) return { ms: performance.now() - started, response };
      } catch {}
      await sleep(10);
    }
    throw new Error(`${path} did not answer 200 within ${START_TIMEOUT_MS} ms`);
  };
  // Whichever fails first says why (the server's output, or its answers that were not 200).
  const [server, page] = await Promise.all([
    startNext({ port, env, timeoutMs: START_TIMEOUT_MS }),
    firstOk('/'),
  ]);
  const cookie = page.response.headers.get('set-cookie')?.split(';')[0] ?? '';
  return {
    server,
    firstOkMs: page.ms,
    firstStoredMs: async () => (await firstOk('/api/sessions', { cookie })).ms,
  };
}

/** bench/bare-route (built), relaying `baseURL`'s `model`. */
export async function startBareRoute(baseURL: string, model: string): Promise<NextServer> {
  return startNext({
    port: await freePort(),
    app: 'bench/bare-route',
    env: { OPENAI_COMPATIBLE_BASE_URL: baseURL, BENCH_MODEL: model },
  });
}

/** An API token of a new identity on `server`. */
export async function tokenOn(server: NextServer): Promise<string> {
  return (await newIdentity(server.url)).bearer;
}

/**
 * Waits until the processes' CPU time stops growing (work a request left behind, such as a
 * turn's last saves after its response ended), at most `limitMs`.
 */
export function settle(pids: number[], limitMs = 5_000): Promise<void> {
  return untilSteady(() => pids.reduce((sum, pid) => sum + cpuMs(pid), 0), limitMs);
}

/**
 * Waits until `total`, a figure that only grows (CPU time), holds still for 250 ms, at most
 * `limitMs`.
 */
export async function untilSteady(total: () => number, limitMs = 5_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let last = total();
  while (Date.now() < deadline) {
    await sleep(250);
    const now = total();
    if (now === last) return;
    last = now;
  }
}

/** CPU milliseconds each of `pids` spent on `work`, counted until they are quiet again. */
export async function cpuSpentOn(pids: number[], work: () => Promise<void>): Promise<number[]> {
  await settle(pids);
  const before = pids.map(cpuMs);
  await work();
  await settle(pids);
  return pids.map((pid, index) => cpuMs(pid) - (before[index] as number));
}

/** Resident memory once idle: the median of five samples, 3 s after the last request. */
export async function idleResidentMiB(pid: number): Promise<number> {
  await sleep(3_000);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    samples.push(residentMiB(pid));
    await sleep(200);
  }
  return percentile(samples, 50);
}

/** Runs every thread of `pid`, and those it starts later, on `cpus` only (e.g. `0`, `0-1`). */
export function pin(pid: number, cpus: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
