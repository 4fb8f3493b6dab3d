import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OwnerLimits } from '../config';
import { handled } from '../http/errors';
import { LEASE_RETRY_AFTER_SECONDS, LEASE_TTL_MS, type LimitExceeded, Limiter } from './limiter';
import { MemoryLimitStore } from './memory-store';
import type { LimitStore } from './store';

const limits: OwnerLimits = {
  requestsPerMinute: 3,
  turnsPerMinute: 2,
  sessionsPerMinute: 1,
  concurrentTurns: 2,
  eventStreams: 1,
};
const START = Date.UTC(2030, 0, 1, 12, 0, 0);

function setup() {
  let now = START;
  const limiter = new Limiter(new MemoryLimitStore(() => now), limits);
  return {
    limiter,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

async function refusal(attempt: Promise<unknown>): Promise<LimitExceeded> {
  return attempt.then(
    () => expect.fail('expected a refusal'),
    (error: LimitExceeded) => error,
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Limiter rates', () => {
  it('allows up to the limit in a minute, then refuses with a 429 saying when to retry', async () => {
    const { limiter, advance } = setup();
    advance(20_000);
    for (let i = 0; i < 3; i++) await limiter.enforceRate('requestsPerMinute', 'ann');
    const error = await refusal(limiter.enforceRate('requestsPerMinute', 'ann'));
    expect(error).toMatchObject({
      status: 429,
      code: 'too_many_requests',
      limit: 'requestsPerMinute',
      retryAfterSeconds: 40,
      message: 'Too many requests: at most 3 a minute. Try again in 40 s.',
      headers: { 'retry-after': '40' },
    });
  });

  it('counts each owner and each limit on its own', async () => {
    const { limiter } = setup();
    await limiter.enforceRate('sessionsPerMinute', 'ann');
    await limiter.enforceRate('sessionsPerMinute', 'bob');
    await limiter.enforceRate('turnsPerMinute', 'ann');
    await limiter.enforceRate('turnsPerMinute', 'ann');
    expect(await refusal(limiter.enforceRate('turnsPerMinute', 'ann'))).toMatchObject({
      code: 'too_many_turns',
      message: 'Too many turns started: at most 2 a minute. Try again in 60 s.',
    });
    expect(await refusal(limiter.enforceRate('sessionsPerMinute', 'ann'))).toMatchObject({
      code: 'too_many_sessions',
      message: 'Too many sessions created: at most 1 a minute. Try again in 60 s.',
    });
  });

  it('allows again once the minute is over', async () => {
    const { limiter, advance } = setup();
    await limiter.enforceRate('sessionsPerMinute', 'ann');
    await refusal(limiter.enforceRate('sessionsPerMinute', 'ann'));
    advance(60_000);
    await expect(limiter.enforceRate('sessionsPerMinute', 'ann')).resolves.toBeUndefined();
  });

  it('never says to retry in 0 seconds, even in the last millisecond of a window', async () => {
    const { limiter, advance } = setup();
    advance(59_999);
    await limiter.enforceRate('sessionsPerMinute', 'ann');
    expect(await refusal(limiter.enforceRate('sessionsPerMinute', 'ann'))).toMatchObject({
      retryAfterSeconds: 1,
      headers: { 'retry-after': '1' },
    });
  });

  it('becomes a 429 answer with Retry-After in whole seconds through handled()', async () => {
    const { limiter, advance } = setup();
    advance(12_345);
    await limiter.enforceRate('sessionsPerMinute', 'ann');
    const route = handled(async () => {
      await limiter.enforceRate('sessionsPerMinute', 'ann');
      return Response.json({ ok: true });
    });
    const response = await route();
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('48');
    expect(await response.json()).toEqual({
      error: {
        code: 'too_many_sessions',
        message: 'Too many sessions created: at most 1 a minute. Try again in 48 s.',
      },
    });
  });
});

describe('Limiter leases', () => {
  it('grants up to the limit at once, refuses past it, and frees a slot on release', async () => {
    const { limiter } = setup();
    const first = await limiter.acquireLease('concurrentTurns', 'ann');
    await limiter.acquireLease('concurrentTurns', 'ann');
    await limiter.acquireLease('concurrentTurns', 'bob');
    expect(await refusal(limiter.acquireLease('concurrentTurns', 'ann'))).toMatchObject({
      status: 429,
      code: 'too_many_running_turns',
      limit: 'concurrentTurns',
      message: 'Too many turns running at once (at most 2): try again when one ends.',
      retryAfterSeconds: LEASE_RETRY_AFTER_SECONDS,
      headers: { 'retry-after': String(LEASE_RETRY_AFTER_SECONDS) },
    });
    await first.release();
    await expect(limiter.acquireLease('concurrentTurns', 'ann')).resolves.toBeDefined();
  });

  it('counts event streams apart from turns', async () => {
    const { limiter } = setup();
    await limiter.acquireLease('concurrentTurns', 'ann');
    await limiter.acquireLease('eventStreams', 'ann');
    expect(await refusal(limiter.acquireLease('eventStreams', 'ann'))).toMatchObject({
      code: 'too_many_event_streams',
      message: 'Too many live event streams open at once (at most 1): close a tab, then try again.',
    });
  });

  it('renews a held lease so it outlives its TTL, and stops when released', async () => {
    vi.useFakeTimers({ now: START });
    const limiter = new Limiter(new MemoryLimitStore(() => Date.now()), limits);
    const stream = await limiter.acquireLease('eventStreams', 'ann');
    await vi.advanceTimersByTimeAsync(5 * LEASE_TTL_MS);
    await refusal(limiter.acquireLease('eventStreams', 'ann'));
    await stream.release();
    expect(vi.getTimerCount()).toBe(0);
    await expect(limiter.acquireLease('eventStreams', 'ann')).resolves.toBeDefined();
  });

  it('stops renewing a lease that expired meanwhile', async () => {
    vi.useFakeTimers({ now: START });
    const store = new MemoryLimitStore(() => Date.now());
    const renew = vi.spyOn(store, 'renew').mockResolvedValue(false);
    await new Limiter(store, limits).acquireLease('concurrentTurns', 'ann');
    await vi.advanceTimersByTimeAsync(5 * LEASE_TTL_MS);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('logs a renewal that fails and tries again at the next one', async () => {
    vi.useFakeTimers({ now: START });
    const store = new MemoryLimitStore(() => Date.now());
    const renew = vi.spyOn(store, 'renew').mockRejectedValue(new Error('connection lost'));
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    await new Limiter(store, limits).acquireLease('concurrentTurns', 'ann');
    await vi.advanceTimersByTimeAsync(LEASE_TTL_MS);
    expect(renew).toHaveBeenCalledTimes(3);
    expect(log).toHaveBeenCalledWith('Could not renew a limit lease:', expect.any(Error));
  });
});

describe('Limiter over a store that fails', () => {
  const broken: LimitStore = {
    hit: () => Promise.reject(new Error('down')),
    acquire: () => Promise.reject(new Error('down')),
    renew: () => Promise.reject(new Error('down')),
    release: () => Promise.reject(new Error('down')),
  };

  it('lets requests through and logs why, rather than failing them', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const limiter = new Limiter(broken, { ...limits, sessionsPerMinute: 1, concurrentTurns: 1 });
    await limiter.enforceRate('sessionsPerMinute', 'ann');
    await limiter.enforceRate('sessionsPerMinute', 'ann');
    const turn = await limiter.acquireLease('concurrentTurns', 'ann');
    await limiter.acquireLease('concurrentTurns', 'ann');
    await expect(turn.release()).resolves.toBeUndefined();
    expect(log).toHaveBeenCalledTimes(5);
    expect(log).toHaveBeenCalledWith('Limits not enforced, their store failed:', expect.any(Error));
  });
});
