import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export type SeededSessions = {
  /** The owner's `quanta_id` cookie value. */
  cookie: string;
  sessions: { id: string; count: number }[];
};

const root = resolve(__dirname, '..', '..');

/**
 * Sessions of `counts` messages each, of one new owner, written into `dataDir`'s PGlite before
 * a server opens it (seed-sessions.mts); the cookie is signed with `secret`, which the server
 * must be given as QUANTA_SECRET.
 */
export function seedSessions(dataDir: string, secret: string, counts: number[]): SeededSessions {
  const output = execFileSync(
    join(root, 'node_modules', '.bin', 'tsx'),
    [
      '--conditions=react-server',
      join(root, 'tests', 'helpers', 'seed-sessions.mts'),
      dataDir,
      ...counts.map(String),
    ],
    { cwd: root, env: { ...process.env, QUANTA_SECRET: secret }, encoding: 'utf8' },
  );
  return JSON.parse(output.trim().split('\n').at(-1) as string) as SeededSessions;
}
