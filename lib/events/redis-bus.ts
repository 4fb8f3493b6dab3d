// Session events shared by every instance that uses the same Redis: pub/sub on a channel per
// session, one publisher and one subscriber connection per process, however many viewers.
import { createClient } from 'redis';
import type { SessionEvent } from '../protocol';
import {
  InMemorySessionEventBus,
  type SessionEventBus,
  type SessionEventListener,
} from './session-events';

/** How long a publish may wait for a connection before it fails (and the event is lost). */
const COMMAND_TIMEOUT_MS = 1_000;

function connectEventsRedis(url: string) {
  const client = createClient({ url, commandOptions: { timeout: COMMAND_TIMEOUT_MS } });
  client.on('error', (error: unknown) => console.error('Redis (events):', error));
  return client;
}

export type EventsRedisClient = ReturnType<typeof connectEventsRedis>;

/**
 * A bus whose events all go through Redis, this process's own included: its listeners hear an
 * event only when Redis hands it back. So every viewer, on every instance, hears a session's
 * events once each and in one order, the order Redis received them in.
 */
export class RedisSessionEventBus implements SessionEventBus {
  /** This process's listeners, by session; Redis messages are handed to them. */
  private readonly local = new InMemorySessionEventBus();

  /**
   * `subscriber` is given to this bus alone: it enters subscribe mode. Pub/sub commands have no
   * timeout, so a SUBSCRIBE sent while Redis is away waits for the reconnection instead of
   * failing; node-redis subscribes again to every confirmed channel when it reconnects.
   */
  constructor(
    private readonly publisher: EventsRedisClient,
    private readonly subscriber: EventsRedisClient,
    private readonly prefix = 'quanta:session:',
  ) {}

  publish(sessionId: string, event: SessionEvent): void {
    this.send(sessionId, event).catch((error: unknown) =>
      console.error(`Redis (events): an event of session ${sessionId} was lost:`, error),
    );
  }

  subscribe(sessionId: string, listener: SessionEventListener): () => void {
    const unsubscribe = this.local.subscribe(sessionId, listener);
    if (this.local.listenerCount(sessionId) === 1) {
      this.subscriber
        .subscribe(this.channel(sessionId), this.receive)
        .catch((error: unknown) => console.error('Redis (events): SUBSCRIBE failed:', error));
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      unsubscribe();
      if (this.local.listenerCount(sessionId) > 0) return;
      this.subscriber
        .unsubscribe(this.channel(sessionId), this.receive)
        .catch((error: unknown) => console.error('Redis (events): UNSUBSCRIBE failed:', error));
    };
  }

  listenerCount(sessionId: string): number {
    return this.local.listenerCount(sessionId);
  }

  /** Closes both connections, once what was sent on them is answered. */
  async close(): Promise<void> {
    await Promise.all([this.publisher.close(), this.subscriber.close()]);
  }

  // Async so that a throw (an event JSON cannot hold) is a rejection like Redis's own failures.
  private async send(sessionId: string, event: SessionEvent): Promise<void> {
    await this.publisher.publish(this.channel(sessionId), JSON.stringify(event));
  }

  private readonly receive = (message: string, channel: string): void => {
    let event: SessionEvent;
    try {
      event = JSON.parse(message);
    } catch (error) {
      console.error(`Redis (events): a malformed message on ${channel} was dropped:`, error);
      return;
    }
    this.local.publish(channel.slice(this.prefix.length), event);
  };

  private channel(sessionId: string): string {
    return `${this.prefix}${sessionId}`;
  }
}

/**
 * A Redis bus for this process, connecting in the background as the limits' client does: a
 * server whose Redis is away still starts and serves; its events wait in node-redis's queue
 * (pub/sub commands) or fail after a second (a publish), each failure logged.
 */
export function createRedisSessionEventBus(url: string, prefix?: string): RedisSessionEventBus {
  const publisher = connectEventsRedis(url);
  const subscriber = publisher.duplicate();
  subscriber.on('error', (error: unknown) => console.error('Redis (events, subscriber):', error));
  for (const client of [publisher, subscriber]) {
    client.connect().catch((error: unknown) => console.error('Redis (events) gave up:', error));
  }
  return new RedisSessionEventBus(publisher, subscriber, prefix);
}
