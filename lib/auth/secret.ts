import 'server-only';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../config';

let cached: string | undefined;

/**
 * The key that signs identities: QUANTA_SECRET, or one generated on first start and kept in
 * the data folder so that cookies stay valid across restarts. Several instances behind a load
 * balancer must share QUANTA_SECRET.
 */
export function secret(): string {
  if (process.env.QUANTA_SECRET) return process.env.QUANTA_SECRET;
  cached ??= readOrCreate(join(dataDir(), 'secret'));
  return cached;
}

function readOrCreate(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(join(file, '..'), { recursive: true });
    try {
      // `wx` fails if another process wrote it first; then that one's secret wins.
      writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
    } catch {}
    return readFileSync(file, 'utf8').trim();
  }
}
