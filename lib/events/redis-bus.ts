// Buses shared by every instance that uses the same Redis: pub/sub on a channel per key, over
// one publisher and one subscriber connection per process, however many buses and listeners.
import { createClient } from 'redis';
import { type Bus, InMemoryBus, type Listener } from './bus';

/** How long a publish may wait for a connection before it fails (and the message is lost). */
const COMMAND_TIMEOUT_MS = 1_000;

function connectBusRedis(url: string) {
  const client = createClient({ url, commandOptions: { timeout: COMMAND_TIMEOUT_MS } });
  client.on('error', (error: unknown) => console.error('Redis (bus):', error));
  return client;
}

export type BusRedisClient = ReturnType<typeof connectBusRedis>;

/**
 * A bus whose messages all go through Redis, this process's own included: its listeners hear a
 * message only when Redis hands it back. So every listener, on every instance, hears a key's
 * messages once each and in one order, the order Redis received them in.
 */
export class RedisBus<T> implements Bus<T> {
  /** This process's listeners, by key; Redis messages are handed to them. */
  private readonly local = new InMemoryBus<T>();

  /**
   * `subscriber` is in subscribe mode (several buses may share it, each with its own prefix).
   * Pub/sub commands have no timeout, so a SUBSCRIBE sent while Redis is away waits for the
   * reconnection instead of failing; node-redis subscribes again to every confirmed channel
   * when it reconnects.
   */
  constructor(
    private readonly publisher: BusRedisClient,
    private readonly subscriber: BusRedisClient,
    private readonly prefix: string,
  ) {}

  publish(key: string, message: T): void {
    this.send(key, message).catch((error: unknown) =>
      console.error(`Redis (bus): a message on ${this.channel(key)} was lost:`, error),
    );
  }

  subscribe(key: string, listener: Listener<T>): () => void {
    const unsubscribe = this.local.subscribe(key, listener);
    if (this.local.listenerCount(key) === 1) {
      this.subscriber
        .subscribe(this.channel(key), this.receive)
        .catch((error: unknown) => console.error('Redis (bus): SUBSCRIBE failed:', error));
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      unsubscribe();
      if (this.local.listenerCount(key) > 0) return;
      this.subscriber
        .unsubscribe(this.channel(key), this.receive)
        .catch((error: unknown) => console.error('Redis (bus): UNSUBSCRIBE failed:', error));
    };
  }

  listenerCount(key: string): number {
    return this.local.listenerCount(key);
  }

  // Async so that a throw (a message JSON cannot hold) is a rejection like Redis's own failures.
  private async send(key: string, message: T): Promise<void> {
    await this.publisher.publish(this.channel(key), JSON.stringify(message));
  }

  private readonly receive = (text: string, channel: string): void => {
    let message: T;
    try {
      message = JSON.parse(text);
    } catch (error) {
      console.error(`Redis (bus): a malformed message on ${channel} was dropped:`, error);
      return;
    }
    this.local.publish(channel.slice(this.prefix.length), message);
  };

  private channel(key: string): string {
    return `${this.prefix}${key}`;
  }
}

/** A process's two Redis connections, and the buses over them. */
export type RedisBuses = {
  /** A bus of its own message type on the keys under `prefix`. */
  bus<T>(prefix: string): RedisBus<T>;
  /** Closes both connections, once what was sent on them is answered. */
  close(): Promise<void>;
};

/**
 * The connections for this process's Redis buses, connecting in the background as the limits'
 * client does: a server whose Redis is away still starts and serves; its messages wait in
 * node-redis's queue (pub/sub commands) or fail after a second (a publish), each failure logged.
 */
export function connectRedisBuses(url: string): RedisBuses {
  const publisher = connectBusRedis(url);
  const subscriber = publisher.duplicate();
  subscriber.on('error', (error: unknown) => console.error('Redis (bus, subscriber):', error));
  for (const client of [publisher, subscriber]) {
    client.connect().catch((error: unknown) => console.error('Redis (bus) gave up:', error));
  }
  return redisBuses(publisher, subscriber);
}

/** Buses over two connections made elsewhere (`subscriber` is given to them alone). */
export function redisBuses(publisher: BusRedisClient, subscriber: BusRedisClient): RedisBuses {
  return {
    bus: <T>(prefix: string) => new RedisBus<T>(publisher, subscriber, prefix),
    close: async () => {
      await Promise.all([publisher.close(), subscriber.close()]);
    },
  };
}
