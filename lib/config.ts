import { resolve } from 'node:path';

/** Where the embedded database and the generated secret live when nothing else is configured. */
export function dataDir(): string {
  // The folder is data, not code: without the comment the build traces the whole project
  // into the standalone output.
  return resolve(/* turbopackIgnore: true */ process.env.QUANTA_DATA_DIR || '.data');
}

/** A PostgreSQL URL switches the app from embedded PGlite to a real server. */
export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

/** A Redis URL makes the per-owner limits shared by every instance that uses it. */
export function redisUrl(): string | undefined {
  return process.env.REDIS_URL || undefined;
}

export type Env = Record<string, string | undefined>;

/** The most model calls (steps) one turn may make: tool round trips end there. */
export function maxSteps(env: Env = process.env): number {
  return positiveInteger(env, 'QUANTA_MAX_STEPS', 20);
}

/** How long a model may send nothing — before it answers or between two parts — before it fails. */
export function modelTimeoutMs(env: Env = process.env): number {
  return positiveInteger(env, 'QUANTA_MODEL_TIMEOUT_MS', 60_000);
}

/**
 * The most bytes of text, reasoning and tool input (as UTF-8) one turn's model calls may
 * produce: the answer is cut there, with a marker saying so.
 */
export function maxAnswerBytes(env: Env = process.env): number {
  return positiveInteger(env, 'QUANTA_MAX_ANSWER_BYTES', 1024 * 1024);
}

/**
 * The most tokens of history (with the system prompt and the tools) a turn sends the model:
 * older messages are summarised beyond it (lib/agent/compaction.ts).
 */
export function contextTokens(env: Env = process.env): number {
  return positiveInteger(env, 'QUANTA_CONTEXT_TOKENS', 64_000);
}

/** The most bytes of arguments (as JSON) a tool call may have: longer ones are refused. */
export function maxToolInputBytes(env: Env = process.env): number {
  return positiveInteger(env, 'QUANTA_MAX_TOOL_INPUT_BYTES', 64 * 1024);
}

/** The most bytes a widget's data may take once serialised, whoever produced it. */
export function maxWidgetDataBytes(env: Env = process.env): number {
  return positiveInteger(env, 'QUANTA_MAX_WIDGET_DATA_BYTES', 256 * 1024);
}

/** What one owner (a browser's identity, or its API tokens) may do. */
export type OwnerLimits = {
  /** API requests of any kind, per minute. */
  requestsPerMinute: number;
  /** Turns started (prompts, edits, regenerations), per minute. */
  turnsPerMinute: number;
  /** Sessions created (new or forked), per minute. */
  sessionsPerMinute: number;
  /** Turns running at the same time, across all the owner's sessions. */
  concurrentTurns: number;
  /** Live event streams open at the same time (about one per open tab). */
  eventStreams: number;
};

export function ownerLimits(env: Env = process.env): OwnerLimits {
  return {
    requestsPerMinute: positiveInteger(env, 'QUANTA_LIMIT_REQUESTS_PER_MINUTE', 600),
    turnsPerMinute: positiveInteger(env, 'QUANTA_LIMIT_TURNS_PER_MINUTE', 20),
    sessionsPerMinute: positiveInteger(env, 'QUANTA_LIMIT_SESSIONS_PER_MINUTE', 30),
    concurrentTurns: positiveInteger(env, 'QUANTA_LIMIT_CONCURRENT_TURNS', 4),
    eventStreams: positiveInteger(env, 'QUANTA_LIMIT_EVENT_STREAMS', 20),
  };
}

function positiveInteger(env: Env, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive integer, not ${JSON.stringify(value)}.`);
  }
  return parsed;
}
