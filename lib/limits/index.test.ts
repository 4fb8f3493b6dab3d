import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ownerLimits } from '../config';
import { newId } from '../ids';
import {
  acquireLease,
  createLimiter,
  enforceRate,
  type LimitExceeded,
  Limiter,
  limiter,
  setLimiter,
} from './index';
import { MemoryLimitStore } from './memory-store';

const redisUrl = process.env.REDIS_URL;

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('ownerLimits', () => {
  it('has defaults for a real deployment', () => {
    expect(ownerLimits({})).toEqual({
      requestsPerMinute: 600,
      turnsPerMinute: 20,
      sessionsPerMinute: 30,
      concurrentTurns: 4,
      eventStreams: 20,
    });
  });

  it('reads each limit from its variable', () => {
    expect(
      ownerLimits({
        QUANTA_LIMIT_REQUESTS_PER_MINUTE: '100',
        QUANTA_LIMIT_TURNS_PER_MINUTE: '5',
        QUANTA_LIMIT_SESSIONS_PER_MINUTE: '6',
        QUANTA_LIMIT_CONCURRENT_TURNS: '1',
        QUANTA_LIMIT_EVENT_STREAMS: '2',
      }),
    ).toEqual({
      requestsPerMinute: 100,
      turnsPerMinute: 5,
      sessionsPerMinute: 6,
      concurrentTurns: 1,
      eventStreams: 2,
    });
  });

  it.each(['0', '-1', '1.5', 'ten'])('refuses %j, naming the variable', (value) => {
    expect(() => ownerLimits({ QUANTA_LIMIT_CONCURRENT_TURNS: value })).toThrow(
      `QUANTA_LIMIT_CONCURRENT_TURNS must be a positive integer, not ${JSON.stringify(value)}.`,
    );
  });
});

describe('the limiter of the process', () => {
  it('is made once, and enforceRate and acquireLease go through it', async () => {
    expect(limiter()).toBe(limiter());
    const previous = setLimiter(
      new Limiter(new MemoryLimitStore(), { ...ownerLimits({}), sessionsPerMinute: 1 }),
    );
    try {
      await enforceRate('sessionsPerMinute', 'ann');
      await expect(enforceRate('sessionsPerMinute', 'ann')).rejects.toMatchObject({
        status: 429,
      });
      const lease = await acquireLease('eventStreams', 'ann');
      await lease.release();
    } finally {
      setLimiter(previous);
    }
  });

  it('follows the QUANTA_LIMIT_* settings, in memory without REDIS_URL', async () => {
    vi.stubEnv('REDIS_URL', '');
    vi.stubEnv('QUANTA_LIMIT_CONCURRENT_TURNS', '1');
    const [first, second] = [createLimiter(), createLimiter()];
    await first.acquireLease('concurrentTurns', 'ann');
    const refused: LimitExceeded = await first.acquireLease('concurrentTurns', 'ann').then(
      () => expect.fail('expected a refusal'),
      (error) => error,
    );
    expect(refused.limit).toBe('concurrentTurns');
    // Each in its own memory: nothing shared.
    await expect(second.acquireLease('concurrentTurns', 'ann')).resolves.toBeDefined();
  });

  (redisUrl ? describe : describe.skip)('with REDIS_URL', () => {
    const owner = `test-${newId()}`;

    afterAll(async () => {
      const client = await createClient({ url: redisUrl }).connect();
      const keys = await client.keys(`quanta:limits:*${owner}*`);
      if (keys.length > 0) await client.del(keys);
      await client.close();
    });

    it('shares the limits of every limiter on the same Redis', async () => {
      vi.stubEnv('QUANTA_LIMIT_SESSIONS_PER_MINUTE', '1');
      const [first, second] = [createLimiter(), createLimiter()];
      await first.enforceRate('sessionsPerMinute', owner);
      await expect(second.enforceRate('sessionsPerMinute', owner)).rejects.toMatchObject({
        code: 'too_many_sessions',
      });
    });
  });
});
