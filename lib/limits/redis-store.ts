import { type CommandParser, createClient, defineScript, type RedisArgument } from 'redis';
import { type Clock, currentWindow, type LimitStore } from './store';

// Each script runs atomically on the server: two instances never both take the last free
// lease, and a window's counter always gets its expiry.

/** INCR with an expiry set by the first hit of the window (the key names the window). */
const hitScript = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
    local count = redis.call('INCR', KEYS[1])
    if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
    return count`,
  parseCommand(parser: CommandParser, key: RedisArgument, windowMs: number) {
    parser.pushKey(key);
    parser.push(String(windowMs));
  },
  transformReply: (count: unknown) => Number(count),
});

// A key's leases are a sorted set of lease ids scored by expiry time. Expired ones are dropped
// first. The set itself expires a TTL after its last lease was taken or renewed, so an owner who
// leaves costs nothing (on Redis's own clock: a skewed instance cannot make it vanish early).
const acquireScript = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
    if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
      redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
      redis.call('PEXPIRE', KEYS[1], ARGV[5])
      return 1
    end
    return 0`,
  parseCommand(
    parser: CommandParser,
    key: RedisArgument,
    now: number,
    expiresAt: number,
    leaseId: string,
    max: number,
    ttlMs: number,
  ) {
    parser.pushKey(key);
    parser.push(String(now), String(expiresAt), leaseId, String(max), String(ttlMs));
  },
  transformReply: (held: unknown) => held === 1,
});

const renewScript = defineScript({
  NUMBER_OF_KEYS: 1,
  SCRIPT: `
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
    if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 0 end
    redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
    redis.call('PEXPIRE', KEYS[1], ARGV[4])
    return 1`,
  parseCommand(
    parser: CommandParser,
    key: RedisArgument,
    now: number,
    expiresAt: number,
    leaseId: string,
    ttlMs: number,
  ) {
    parser.pushKey(key);
    parser.push(String(now), String(expiresAt), leaseId, String(ttlMs));
  },
  transformReply: (held: unknown) => held === 1,
});

const scripts = { hit: hitScript, acquire: acquireScript, renew: renewScript };

/** How long a command may wait for a connection before it fails (and the limit is skipped). */
const COMMAND_TIMEOUT_MS = 1_000;

/**
 * A client for the limits, connecting in the background. While Redis is unreachable its
 * commands fail after a second instead of waiting; its errors are logged, never thrown.
 */
export function connectLimitsRedis(url: string) {
  const client = createClient({ url, scripts, commandOptions: { timeout: COMMAND_TIMEOUT_MS } });
  client.on('error', (error: unknown) => console.error('Redis (limits):', error));
  client.connect().catch((error: unknown) => console.error('Redis (limits) gave up:', error));
  return client;
}

export type LimitsRedisClient = ReturnType<typeof connectLimitsRedis>;

/**
 * Limits shared by every instance that uses the same Redis. Windows and lease expiries follow
 * each instance's clock, so instances' clocks should agree to well within a window.
 */
export class RedisLimitStore implements LimitStore {
  constructor(
    private readonly client: LimitsRedisClient,
    private readonly prefix = 'quanta:limits:',
    private readonly now: Clock = Date.now,
  ) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const { index, resetInMs } = currentWindow(this.now(), windowMs);
    const count = await this.client.hit(`${this.prefix}rate:${key}:${index}`, windowMs);
    return { count, resetInMs };
  }

  async acquire(key: string, leaseId: string, max: number, ttlMs: number): Promise<boolean> {
    const now = this.now();
    return this.client.acquire(this.leaseKey(key), now, now + ttlMs, leaseId, max, ttlMs);
  }

  async renew(key: string, leaseId: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    return this.client.renew(this.leaseKey(key), now, now + ttlMs, leaseId, ttlMs);
  }

  async release(key: string, leaseId: string): Promise<void> {
    await this.client.zRem(this.leaseKey(key), leaseId);
  }

  private leaseKey(key: string): string {
    return `${this.prefix}lease:${key}`;
  }
}
