// Publish/subscribe by key, in this process. The session events and the turns' live tails are
// buses of their own message types; with REDIS_URL, Redis carries both (`redis-bus.ts`).

export type Listener<T> = (message: T) => void;

export interface Bus<T> {
  /** Hands `message` to every listener of `key`; never throws, never waits for them. */
  publish(key: string, message: T): void;
  /** Listens to `key` until the returned function is called (once or more). */
  subscribe(key: string, listener: Listener<T>): () => void;
  /** How many listeners `key` has here (for tests and diagnostics). */
  listenerCount(key: string): number;
}

export class InMemoryBus<T> implements Bus<T> {
  private readonly channels = new Map<string, Set<Listener<T>>>();

  publish(key: string, message: T): void {
    const listeners = this.channels.get(key);
    if (!listeners) return;
    // A copy: a listener may unsubscribe (itself or another) while the message is handed out.
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        // One broken listener must not stop the others, nor the publisher.
        console.error('A bus listener failed:', error);
      }
    }
  }

  subscribe(key: string, listener: Listener<T>): () => void {
    let listeners = this.channels.get(key);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(key, listeners);
    }
    // Each subscription is its own entry, even for a listener subscribed twice.
    const entry: Listener<T> = (message) => listener(message);
    listeners.add(entry);
    return () => {
      const current = this.channels.get(key);
      if (!current?.delete(entry)) return;
      // No empty channel is kept: a key nobody listens to costs nothing.
      if (current.size === 0) this.channels.delete(key);
    };
  }

  listenerCount(key: string): number {
    return this.channels.get(key)?.size ?? 0;
  }
}
