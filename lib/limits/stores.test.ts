import { afterAll, describe, expect, it, vi } from 'vitest';
import { MemoryLimitStore } from './memory-store';
import { connectLimitsRedis, type LimitsRedisClient, RedisLimitStore } from './redis-store';
import type { LimitStore } from './store';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  console.warn('REDIS_URL is unset: the Redis runs of the limit store tests are skipped.');
}

const MINUTE = 60_000;
// The start of a minute: windows are aligned to the epoch.
const START = Date.UTC(2030, 0, 1, 12, 0, 0);

/** A clock the test moves by hand; every store of one test reads the same one. */
function manualClock() {
  let now = START;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

type Clock = ReturnType<typeof manualClock>;

// Each Redis run gets its own key prefix, removed at the end.
const prefix = `quanta:test:limits:${Math.random().toString(36).slice(2, 10)}:`;
const clients: LimitsRedisClient[] = [];

function redisStore(clock: Clock): RedisLimitStore {
  const client = connectLimitsRedis(redisUrl as string);
  clients.push(client);
  return new RedisLimitStore(client, prefix, clock.now);
}

afterAll(async () => {
  const [first] = clients;
  if (first) {
    const keys = await first.keys(`${prefix}*`);
    if (keys.length > 0) await first.del(keys);
  }
  await Promise.all(clients.map((client) => client.isOpen && client.close()));
});

const kinds = {
  memory: (clock: Clock): LimitStore => new MemoryLimitStore(clock.now),
  redis: redisStore,
};

for (const [kind, open] of Object.entries(kinds)) {
  const run = kind === 'redis' && !redisUrl ? describe.skip : describe;
  run(`limit store [${kind}]`, () => {
    // Every test its own keys, so they may share one Redis prefix.
    let n = 0;
    const key = () => `${kind}-${++n}`;

    it('counts hits in a window and says when it ends', async () => {
      const clock = manualClock();
      const store = open(clock);
      const [a, b] = [key(), key()];
      clock.advance(15_000);
      expect(await store.hit(a, MINUTE)).toEqual({ count: 1, resetInMs: 45_000 });
      expect(await store.hit(a, MINUTE)).toEqual({ count: 2, resetInMs: 45_000 });
      expect(await store.hit(b, MINUTE)).toEqual({ count: 1, resetInMs: 45_000 });
      clock.advance(44_999);
      expect(await store.hit(a, MINUTE)).toEqual({ count: 3, resetInMs: 1 });
    });

    it('starts counting again when the window ends', async () => {
      const clock = manualClock();
      const store = open(clock);
      const a = key();
      await store.hit(a, MINUTE);
      await store.hit(a, MINUTE);
      clock.advance(MINUTE);
      expect(await store.hit(a, MINUTE)).toEqual({ count: 1, resetInMs: MINUTE });
    });

    it('grants up to max leases, then refuses; a held lease may be taken again', async () => {
      const store = open(manualClock());
      const a = key();
      expect(await store.acquire(a, 'one', 2, MINUTE)).toBe(true);
      expect(await store.acquire(a, 'two', 2, MINUTE)).toBe(true);
      expect(await store.acquire(a, 'three', 2, MINUTE)).toBe(false);
      expect(await store.acquire(a, 'two', 2, MINUTE)).toBe(true);
      expect(await store.acquire(key(), 'three', 2, MINUTE)).toBe(true);
    });

    it('frees a slot on release; releasing an unknown lease does nothing', async () => {
      const store = open(manualClock());
      const a = key();
      await store.acquire(a, 'one', 1, MINUTE);
      await store.release(a, 'nobody');
      expect(await store.acquire(a, 'two', 1, MINUTE)).toBe(false);
      await store.release(a, 'one');
      expect(await store.acquire(a, 'two', 1, MINUTE)).toBe(true);
    });

    it('frees the slot of a lease that expired, which cannot be renewed then', async () => {
      const clock = manualClock();
      const store = open(clock);
      const a = key();
      await store.acquire(a, 'one', 1, MINUTE);
      clock.advance(MINUTE - 1);
      expect(await store.acquire(a, 'two', 1, MINUTE)).toBe(false);
      clock.advance(1);
      expect(await store.renew(a, 'one', MINUTE)).toBe(false);
      expect(await store.acquire(a, 'two', 1, MINUTE)).toBe(true);
    });

    it('keeps a renewed lease past its first expiry', async () => {
      const clock = manualClock();
      const store = open(clock);
      const a = key();
      await store.acquire(a, 'one', 1, MINUTE);
      clock.advance(40_000);
      expect(await store.renew(a, 'one', MINUTE)).toBe(true);
      clock.advance(40_000);
      expect(await store.acquire(a, 'two', 1, MINUTE)).toBe(false);
      clock.advance(20_000);
      expect(await store.acquire(a, 'two', 1, MINUTE)).toBe(true);
    });
  });
}

(redisUrl ? describe : describe.skip)('limit store [redis], two instances sharing limits', () => {
  it('refuses the lease past max across both, and frees it on release', async () => {
    const clock = manualClock();
    const [first, second] = [redisStore(clock), redisStore(clock)];
    expect(await first.acquire('shared-lease', 'a', 3, MINUTE)).toBe(true);
    expect(await second.acquire('shared-lease', 'b', 3, MINUTE)).toBe(true);
    expect(await first.acquire('shared-lease', 'c', 3, MINUTE)).toBe(true);
    expect(await second.acquire('shared-lease', 'd', 3, MINUTE)).toBe(false);
    expect(await first.acquire('shared-lease', 'd', 3, MINUTE)).toBe(false);
    await first.release('shared-lease', 'a');
    expect(await second.acquire('shared-lease', 'd', 3, MINUTE)).toBe(true);
  });

  it('lets only max of many simultaneous acquires through', async () => {
    const clock = manualClock();
    const [first, second] = [redisStore(clock), redisStore(clock)];
    const attempts = Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? first : second).acquire('race', `lease-${i}`, 3, MINUTE),
    );
    const held = await Promise.all(attempts);
    expect(held.filter(Boolean)).toHaveLength(3);
  });

  it("frees a crashed instance's lease once it expires", async () => {
    const clock = manualClock();
    const [crashed, survivor] = [redisStore(clock), redisStore(clock)];
    expect(await crashed.acquire('crash', 'lost', 1, MINUTE)).toBe(true);
    expect(await survivor.acquire('crash', 'mine', 1, MINUTE)).toBe(false);
    clock.advance(MINUTE);
    expect(await survivor.acquire('crash', 'mine', 1, MINUTE)).toBe(true);
  });

  it('counts hits of both in one window, and both start again in the next', async () => {
    const clock = manualClock();
    const [first, second] = [redisStore(clock), redisStore(clock)];
    await first.hit('shared-rate', MINUTE);
    await second.hit('shared-rate', MINUTE);
    expect((await first.hit('shared-rate', MINUTE)).count).toBe(3);
    clock.advance(MINUTE);
    expect((await second.hit('shared-rate', MINUTE)).count).toBe(1);
    expect((await first.hit('shared-rate', MINUTE)).count).toBe(2);
  });

  it('gives its keys an expiry in Redis, so nothing is left behind', async () => {
    const clock = manualClock();
    const store = redisStore(clock);
    const client = clients.at(-1) as LimitsRedisClient;
    await store.hit('expiring', MINUTE);
    await store.acquire('expiring', 'a', 1, MINUTE);
    for (const key of await client.keys(`${prefix}*expiring*`)) {
      const ttl = await client.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(MINUTE);
    }
    expect(await client.keys(`${prefix}*expiring*`)).toHaveLength(2);
  });
});

describe('limit store [redis], unreachable', () => {
  it('fails a command within a second and logs, rather than hanging or crashing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Nothing listens on port 1.
    const client = connectLimitsRedis('redis://127.0.0.1:1');
    const started = performance.now();
    await expect(new RedisLimitStore(client).hit('any', MINUTE)).rejects.toThrow(/timed out/);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(log).toHaveBeenCalledWith('Redis (limits):', expect.any(Error));
    client.destroy();
    await vi.waitFor(() =>
      expect(log).toHaveBeenCalledWith('Redis (limits) gave up:', expect.any(Error)),
    );
    log.mockRestore();
  });
});
