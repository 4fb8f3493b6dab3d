// Live events of a session, for every open viewer of it: the owner's other tabs and the readers
// of a public link. One channel per session id.
import type { SessionEvent } from '../protocol';
import { type Bus, InMemoryBus, type Listener } from './bus';

/**
 * The session events' bus. The in-memory one reaches the viewers connected to this process;
 * with REDIS_URL set, a bus over Redis (`redis-bus.ts`) takes its place at start-up, so that
 * several instances behind a load balancer share events.
 */
export type SessionEventBus = Bus<SessionEvent>;

// On globalThis so that Next's dev reloads (and every route's module copy) share one bus.
const shared = globalThis as typeof globalThis & { quantaSessionEvents?: SessionEventBus };

/** The bus of this process. */
export function sessionEventBus(): SessionEventBus {
  shared.quantaSessionEvents ??= new InMemoryBus<SessionEvent>();
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

export function subscribe(sessionId: string, listener: Listener<SessionEvent>): () => void {
  return sessionEventBus().subscribe(sessionId, listener);
}

export function listenerCount(sessionId: string): number {
  return sessionEventBus().listenerCount(sessionId);
}
