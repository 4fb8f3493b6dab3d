import type { UIMessageChunk } from 'ai';
import { type Bus, InMemoryBus } from '../events/bus';

// What instances tell each other about running turns: the live tail of a turn's log, for
// readers on other instances, and what they ask of the instance that runs it. With REDIS_URL the
// bus goes over Redis (set at start-up); without it, it stays in this process, which then is the
// only instance.

export type TurnMessage =
  /** A batch just written to the turn's log: its chunks numbered `from` and on. */
  | { type: 'chunks'; from: number; chunks: UIMessageChunk[] }
  /** The turn has ended and its answer is stored: nothing more will be logged. */
  | { type: 'end' }
  /** Someone asked the turn to stop. */
  | { type: 'stop' }
  /** A reader on another instance follows the turn: its log should be written live. */
  | { type: 'follow' };

/** The key a turn's log batches and its end are published on. */
export const feedKey = (turnId: string) => `feed:${turnId}`;
/** The key a Stop for a turn is published on. */
export const stopKey = (turnId: string) => `stop:${turnId}`;
/**
 * The key a follower on another instance asks on for a turn's log live. Not Stop's: an instance
 * of an earlier build, still running turns in a rolling deploy, stops a turn on any message there.
 */
export const followKey = (turnId: string) => `follow:${turnId}`;

// On globalThis so that Next's dev reloads (and every route's module copy) share one bus.
const shared = globalThis as typeof globalThis & { quantaTurnBus?: Bus<TurnMessage> };

export function turnBus(): Bus<TurnMessage> {
  shared.quantaTurnBus ??= new InMemoryBus<TurnMessage>();
  return shared.quantaTurnBus;
}

/** Replaces the bus of this process (a Redis one, say); returns the one it replaced. */
export function setTurnBus(bus: Bus<TurnMessage>): Bus<TurnMessage> {
  const previous = turnBus();
  shared.quantaTurnBus = bus;
  return previous;
}
