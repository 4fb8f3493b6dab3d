// Live events of a session, for every open viewer of it: the owner's other tabs and the readers
// of a public link. One channel per session id.
import type { SessionEvent } from '../protocol';

export type SessionEventListener = (event: SessionEvent) => void;

/**
 * Publish/subscribe by session id. The in-memory bus reaches the viewers connected to this
 * process; with REDIS_URL set, the bus over Redis (`redis-bus.ts`) takes its place at start-up,
 * so that several instances behind a load balancer share events.
 */
export interface SessionEventBus {
  /** Hands `event` to every listener of the session; never throws, never waits for them. */
  publish(sessionId: string, event: SessionEvent): void;
  /** Listens to the session's events until the returned function is called (once or more). */
  subscribe(sessionId: string, listener: SessionEventListener): () => void;
  /** How many listeners the session has here (for tests and diagnostics). */
  listenerCount(sessionId: string): number;
}

export class InMemorySessionEventBus implements SessionEventBus {
  private readonly channels = new Map<string, Set<SessionEventListener>>();

  publish(sessionId: string, event: SessionEvent): void {
    const listeners = this.channels.get(sessionId);
    if (!listeners) return;
    // A copy: a listener may unsubscribe (itself or another) while the event is handed out.
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        // One broken viewer must not stop the others, nor the turn that published.
        console.error('A session event listener failed:', error);
      }
    }
  }

  subscribe(sessionId: string, listener: SessionEventListener): () => void {
    let listeners = this.channels.get(sessionId);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(sessionId, listeners);
    }
    // Each subscription is its own entry, even for a listener subscribed twice.
    const entry: SessionEventListener = (event) => listener(event);
    listeners.add(entry);
    return () => {
      const current = this.channels.get(sessionId);
      if (!current?.delete(entry)) return;
      // No empty channel is kept: a session nobody watches costs nothing.
      if (current.size === 0) this.channels.delete(sessionId);
    };
  }

  listenerCount(sessionId: string): number {
    return this.channels.get(sessionId)?.size ?? 0;
  }
}

// On globalThis so that Next's dev reloads (and every route's module copy) share one bus.
const shared = globalThis as typeof globalThis & { quantaSessionEvents?: SessionEventBus };

/** The bus of this process. */
export function sessionEventBus(): SessionEventBus {
  shared.quantaSessionEvents ??= new InMemorySessionEventBus();
  return shared.quantaSessionEvents;
}

/** Replaces the bus of this process (a Redis one, say); returns the one it replaced. */
export function setSessionEventBus(bus: SessionEventBus): SessionEventBus {
  const previous = sessionEventBus();
  shared.quantaSessionEvents = bus;
  return previous;
}

export function publish(sessionId: string, event: SessionEvent): void {
  sessionEventBus().publish(sessionId, event);
}

export function subscribe(sessionId: string, listener: SessionEventListener): () => void {
  return sessionEventBus().subscribe(sessionId, listener);
}

export function listenerCount(sessionId: string): number {
  return sessionEventBus().listenerCount(sessionId);
}
