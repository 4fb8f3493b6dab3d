import { type Clock, currentWindow, type LimitStore } from './store';

/** The limits of one process: enough when Quanta runs as a single instance. */
export class MemoryLimitStore implements LimitStore {
  // Per window length, the counts of the current window only: when it ends they all go at
  // once, so an owner who never comes back costs nothing.
  private readonly windows = new Map<number, { index: number; counts: Map<string, number> }>();
  // Per key, its live leases and when each expires.
  private readonly leases = new Map<string, Map<string, number>>();

  constructor(private readonly now: Clock = Date.now) {}

  async hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const { index, resetInMs } = currentWindow(this.now(), windowMs);
    let window = this.windows.get(windowMs);
    if (window?.index !== index) {
      window = { index, counts: new Map() };
      this.windows.set(windowMs, window);
    }
    const count = (window.counts.get(key) ?? 0) + 1;
    window.counts.set(key, count);
    return { count, resetInMs };
  }

  async acquire(key: string, leaseId: string, max: number, ttlMs: number): Promise<boolean> {
    const live = this.liveLeases(key);
    if (!live.has(leaseId) && live.size >= max) return false;
    live.set(leaseId, this.now() + ttlMs);
    this.leases.set(key, live);
    return true;
  }

  async renew(key: string, leaseId: string, ttlMs: number): Promise<boolean> {
    const live = this.liveLeases(key);
    if (!live.has(leaseId)) return false;
    live.set(leaseId, this.now() + ttlMs);
    return true;
  }

  async release(key: string, leaseId: string): Promise<void> {
    const live = this.leases.get(key);
    live?.delete(leaseId);
    if (live?.size === 0) this.leases.delete(key);
  }

  /** The key's leases that have not expired; expired ones are dropped on the way. */
  private liveLeases(key: string): Map<string, number> {
    const live = this.leases.get(key) ?? new Map<string, number>();
    const now = this.now();
    for (const [leaseId, expiresAt] of live) {
      if (expiresAt <= now) live.delete(leaseId);
    }
    if (live.size === 0) this.leases.delete(key);
    return live;
  }
}
