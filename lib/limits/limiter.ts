import type { OwnerLimits } from '../config';
import { HttpError } from '../http/errors';
import { newId } from '../ids';
import type { LimitStore } from './store';

/** Limits counted per minute. */
export type RateLimit = Extract<
  keyof OwnerLimits,
  'requestsPerMinute' | 'turnsPerMinute' | 'sessionsPerMinute'
>;
/** Limits on how many things an owner holds at once. */
export type LeaseLimit = Extract<keyof OwnerLimits, 'concurrentTurns' | 'eventStreams'>;

const MINUTE_MS = 60_000;

/** A lease not renewed for this long is gone: a crashed instance does not keep its slots. */
export const LEASE_TTL_MS = 60_000;
const RENEW_EVERY_MS = LEASE_TTL_MS / 3;

/**
 * A slot frees when a turn ends or a stream closes, which nobody can foresee: a short wait is
 * the best hint there is.
 */
export const LEASE_RETRY_AFTER_SECONDS = 5;

const RATES: Record<RateLimit, { code: string; what: string }> = {
  requestsPerMinute: { code: 'too_many_requests', what: 'requests' },
  turnsPerMinute: { code: 'too_many_turns', what: 'turns started' },
  sessionsPerMinute: { code: 'too_many_sessions', what: 'sessions created' },
};

const LEASES: Record<LeaseLimit, { code: string; refusal: (max: number) => string }> = {
  concurrentTurns: {
    code: 'too_many_running_turns',
    refusal: (max) => `Too many turns running at once (at most ${max}): try again when one ends.`,
  },
  eventStreams: {
    code: 'too_many_event_streams',
    refusal: (max) =>
      `Too many live event streams open at once (at most ${max}): close a tab, then try again.`,
  },
};

/** A 429 naming the limit, with a `Retry-After` header of whole seconds (at least 1). */
export class LimitExceeded extends HttpError {
  constructor(
    readonly limit: RateLimit | LeaseLimit,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, code, message, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}

/** A held slot of a lease limit. It renews itself until released; release it exactly when done. */
export type Lease = { release(): Promise<void> };

/** The per-owner limits, enforced through a store. */
export class Limiter {
  constructor(
    private readonly store: LimitStore,
    private readonly limits: OwnerLimits,
  ) {}

  /** Counts one more of `limit` for `ownerId`; throws LimitExceeded past the limit. */
  async enforceRate(limit: RateLimit, ownerId: string): Promise<void> {
    const max = this.limits[limit];
    const counted = await this.attempt(() => this.store.hit(`${limit}:${ownerId}`, MINUTE_MS));
    if (!counted || counted.count <= max) return;
    const seconds = Math.ceil(counted.resetInMs / 1000);
    const message = `Too many ${RATES[limit].what}: at most ${max} a minute. Try again in ${seconds} s.`;
    throw new LimitExceeded(limit, RATES[limit].code, message, seconds);
  }

  /** Takes one of `ownerId`'s slots of `limit`; throws LimitExceeded when all are taken. */
  async acquireLease(limit: LeaseLimit, ownerId: string): Promise<Lease> {
    const key = `${limit}:${ownerId}`;
    const leaseId = newId();
    const max = this.limits[limit];
    const held = await this.attempt(() => this.store.acquire(key, leaseId, max, LEASE_TTL_MS));
    if (held === false) {
      const { code, refusal } = LEASES[limit];
      throw new LimitExceeded(limit, code, refusal(max), LEASE_RETRY_AFTER_SECONDS);
    }
    const timer = setInterval(() => {
      this.store.renew(key, leaseId, LEASE_TTL_MS).then(
        (renewed) => {
          // Expired meanwhile (the process stalled past the TTL): nothing is left to renew.
          if (!renewed) clearInterval(timer);
        },
        (error: unknown) => console.error('Could not renew a limit lease:', error),
      );
    }, RENEW_EVERY_MS);
    // A lease alone does not keep the process from exiting.
    timer.unref();
    return {
      release: async () => {
        clearInterval(timer);
        await this.attempt(() => this.store.release(key, leaseId));
      },
    };
  }

  // An unreachable store (Redis down) must not take the API down with it: the limit is not
  // enforced meanwhile, and the failure is logged.
  private async attempt<T>(operation: () => Promise<T>): Promise<T | undefined> {
    try {
      return await operation();
    } catch (error) {
      console.error('Limits not enforced, their store failed:', error);
      return undefined;
    }
  }
}
