import { ownerLimits, redisUrl } from '../config';
import { type Lease, type LeaseLimit, Limiter, type RateLimit } from './limiter';
import { MemoryLimitStore } from './memory-store';
import { connectLimitsRedis, RedisLimitStore } from './redis-store';

export type { Lease, LeaseLimit, RateLimit } from './limiter';
export { LimitExceeded, Limiter } from './limiter';

// On globalThis so that Next's dev reloads (and every route's module copy) share one limiter,
// and so one Redis client per process.
const shared = globalThis as typeof globalThis & { quantaLimiter?: Limiter };

/** The limiter of this process, made at first use (so its Redis client too, if any). */
export function limiter(): Limiter {
  shared.quantaLimiter ??= createLimiter();
  return shared.quantaLimiter;
}

/** A limiter from the QUANTA_LIMIT_* settings, over Redis when REDIS_URL is set. */
export function createLimiter(): Limiter {
  const url = redisUrl();
  const store = url ? new RedisLimitStore(connectLimitsRedis(url)) : new MemoryLimitStore();
  return new Limiter(store, ownerLimits());
}

/** Replaces the limiter of this process (one with small limits, in a test); returns the old one. */
export function setLimiter(next: Limiter): Limiter {
  const previous = limiter();
  shared.quantaLimiter = next;
  return previous;
}

/** Counts one more of `limit` for `ownerId`; throws a 429 (LimitExceeded) past the limit. */
export function enforceRate(limit: RateLimit, ownerId: string): Promise<void> {
  return limiter().enforceRate(limit, ownerId);
}

/** Takes one of `ownerId`'s slots of `limit`, or throws a 429 (LimitExceeded). */
export function acquireLease(limit: LeaseLimit, ownerId: string): Promise<Lease> {
  return limiter().acquireLease(limit, ownerId);
}
