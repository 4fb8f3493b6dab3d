/**
 * Where the per-owner limits keep their counts: in this process's memory, or in Redis so that
 * every instance behind a load balancer counts against the same numbers. `key` names a limit
 * and an owner; the store does not interpret it.
 */
export interface LimitStore {
  /**
   * Counts one hit of `key` in the current fixed window of `windowMs` (windows start at
   * multiples of `windowMs` since the epoch); answers the count in this window, this hit
   * included, and how long until the window ends.
   */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /**
   * Takes a lease named `leaseId` if `key` has fewer than `max` live ones (or already holds
   * this one); it lives `ttlMs` unless renewed. Says whether the lease is held.
   */
  acquire(key: string, leaseId: string, max: number, ttlMs: number): Promise<boolean>;
  /** Gives a live lease another `ttlMs`; false when it had expired (or never was). */
  renew(key: string, leaseId: string, ttlMs: number): Promise<boolean>;
  /** Frees the lease's slot at once (nothing happens if it is gone already). */
  release(key: string, leaseId: string): Promise<void>;
}

/** What the stores tell time by: injected in tests, `Date.now` otherwise. */
export type Clock = () => number;

/** The fixed window `now` falls in: its number, and how long until it ends. */
export function currentWindow(now: number, windowMs: number): { index: number; resetInMs: number } {
  return { index: Math.floor(now / windowMs), resetInMs: windowMs - (now % windowMs) };
}
