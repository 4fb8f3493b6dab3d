import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * A server of the built app (`next start`, or the standalone server.js), on its own port and
 * data folder. A temporary data folder this module made is deleted when the test process exits
 * (reuse it within the process).
 */
export type NextServer = {
  url: string;
  dataDir: string;
  /** The server's process (which serves every request: `next start` forks no workers). */
  pid: number;
  /** What the server printed so far (the last 64 KB), for failure messages. */
  output(): string;
  /** Ends the server (SIGTERM, then SIGKILL after 10 s) and waits until it has exited. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would, and waits until it has exited. */
  kill(): Promise<void>;
};

export type StartOptions = {
  port: number;
  /** Added to the server's environment; `QUANTA_DATA_DIR` here reuses a data folder. */
  env?: Record<string, string>;
  /** Milliseconds to wait for `GET /` to answer; 60 s unless given. */
  timeoutMs?: number;
  /** Runs `.next/standalone/server.js`, as the Docker image does, instead of `next start`. */
  standalone?: boolean;
  /** The folder of the built Next app to serve, relative to the repository; `.` unless given. */
  app?: string;
};

const root = resolve(__dirname, '..', '..');
const nextBin = join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const standaloneDir = join(root, '.next', 'standalone');
const MAX_OUTPUT = 64 * 1024;

// Whatever ends the test process (a failed test, a timeout, Ctrl-C), no server outlives it,
// and the temporary data folders (tens of MB each) go with it.
const running = new Set<ChildProcess>();
const temporary = new Set<string>();
process.once('exit', () => {
  for (const child of running) kill(child, 'SIGKILL');
  for (const directory of temporary) rmSync(directory, { recursive: true, force: true });
});

// Variables from the caller's shell that would change which database or models the app uses.
const INHERITED_CONFIG = [
  'DATABASE_URL',
  'REDIS_URL',
  'QUANTA_SECRET',
  'QUANTA_DEFAULT_MODEL',
  'QUANTA_MAX_STEPS',
  'QUANTA_MODEL_TIMEOUT_MS',
  'QUANTA_MODEL_PRICES',
  'QUANTA_ALLOWED_HOSTS',
  'QUANTA_PUBLIC_URL',
  'QUANTA_MAX_ANSWER_BYTES',
  'QUANTA_MAX_TOOL_INPUT_BYTES',
  'QUANTA_MAX_WIDGET_DATA_BYTES',
  'QUANTA_LIMIT_REQUESTS_PER_MINUTE',
  'QUANTA_LIMIT_TURNS_PER_MINUTE',
  'QUANTA_LIMIT_SESSIONS_PER_MINUTE',
  'QUANTA_LIMIT_CONCURRENT_TURNS',
  'QUANTA_LIMIT_EVENT_STREAMS',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'AI_GATEWAY_API_KEY',
  'OPENAI_COMPATIBLE_BASE_URL',
  'OPENAI_COMPATIBLE_API_KEY',
  'OPENAI_COMPATIBLE_MODELS',
  'NODE_ENV',
  'PORT',
  'HOSTNAME',
];

/**
 * Starts `next start` (or the standalone server) on 127.0.0.1:`port` (the app must be built)
 * with embedded PGlite in a fresh temporary data folder unless `env.QUANTA_DATA_DIR` names one;
 * resolves once `GET /` answers. Rejects, with the server's output, if it exits or does not
 * answer in time.
 */
export async function startNext({
  port,
  env = {},
  timeoutMs = 60_000,
  standalone = false,
  app = '.',
}: StartOptions): Promise<NextServer> {
  let dataDir = env.QUANTA_DATA_DIR;
  if (dataDir === undefined) {
    dataDir = mkdtempSync(join(tmpdir(), 'quanta-next-'));
    temporary.add(dataDir);
  }
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_CONFIG) delete childEnv[name];
  Object.assign(childEnv, { NEXT_TELEMETRY_DISABLED: '1', QUANTA_DATA_DIR: dataDir }, env);

  if (standalone) {
    copyStandaloneAssets();
    // server.js takes its address from the environment only.
    Object.assign(childEnv, { HOSTNAME: '127.0.0.1', PORT: String(port) });
  }
  const args = standalone
    ? [join(standaloneDir, 'server.js')]
    : [nextBin, 'start', app, '-H', '127.0.0.1', '-p', String(port)];
  // Either serves from this one process (it forks no workers).
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-MAX_OUTPUT);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const exited = new Promise<void>((done) => {
    const gone = () => {
      running.delete(child);
      done();
    };
    child.once('exit', gone);
    // It could not be started at all (then there is no exit event).
    child.once('error', (error) => {
      record(Buffer.from(`${error}\n`));
      gone();
    });
  });

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    kill(child, 'SIGTERM');
    const timer = setTimeout(() => kill(child, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const crash = async () => {
    kill(child, 'SIGKILL');
    await exited;
  };

  try {
    await waitUntilAnswering(url, exited, timeoutMs);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  return { url, dataDir, pid: child.pid as number, output: () => output, stop, kill: crash };
}

/**
 * The build leaves the static assets and public/ out of .next/standalone, and the server serves
 * them from there: copy them in, as a deployment (the Dockerfile) does.
 */
function copyStandaloneAssets() {
  const into = (path: string) => join(standaloneDir, path);
  cpSync(join(root, '.next', 'static'), into('.next/static'), { recursive: true });
  cpSync(join(root, 'public'), into('public'), { recursive: true });
}

async function waitUntilAnswering(url: string, exited: Promise<void>, timeoutMs: number) {
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`the server exited before ${url} answered`);
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function kill(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(signal);
  } catch {}
}

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * A new anonymous identity on `url`: the cookie its first page view sets, and an API token that
 * cookie created (as the API tokens dialog does) for `Authorization: Bearer <bearer>`.
 */
export async function newIdentity(url: string): Promise<{ cookie: string; bearer: string }> {
  const response = await fetch(`${url}/`);
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((header) => /^quanta_id=([^;]+)/.exec(header)?.[1])
    .find((value) => value !== undefined);
  if (!cookie) throw new Error(`GET ${url}/ set no quanta_id cookie`);
  const created = await fetch(`${url}/api/tokens`, {
    method: 'POST',
    headers: { cookie: `quanta_id=${cookie}`, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'e2e' }),
  });
  if (created.status !== 201) throw new Error(`POST ${url}/api/tokens: ${await created.text()}`);
  const { bearer } = (await created.json()) as { bearer: string };
  return { cookie: decodeURIComponent(cookie), bearer };
}
