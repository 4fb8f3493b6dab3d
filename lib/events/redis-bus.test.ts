import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../protocol';
import {
  type BusRedisClient,
  connectRedisBuses,
  type RedisBus,
  type RedisBuses,
  redisBuses,
} from './redis-bus';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  console.warn('REDIS_URL is unset: the Redis session event bus tests are skipped.');
}

// Each run its own channels, so that parallel runs on one Redis never hear each other.
const prefix = `quanta:test:events:${Math.random().toString(36).slice(2, 10)}:`;
let n = 0;
const sessionId = () => `s${++n}`;

const WAIT_MS = 3_000;

async function waitFor(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const widget = (version: number): SessionEvent => ({
  type: 'widget',
  toolCallId: 'call-1',
  data: { n: version },
  version,
});
const ended: SessionEvent = { type: 'turn', status: 'ended' };

(redisUrl ? describe : describe.skip)('RedisBus', () => {
  const url = redisUrl as string;
  // A third client, as Redis's own view: how many connections listen on a channel.
  const admin = createClient({ url });
  const connections: RedisBuses[] = [];

  async function bus(): Promise<RedisBus<SessionEvent>> {
    const created = connectRedisBuses(url);
    connections.push(created);
    return created.bus<SessionEvent>(prefix);
  }

  async function subscribers(session: string): Promise<number> {
    const counts = await admin.pubSubNumSub(`${prefix}${session}`);
    return counts[`${prefix}${session}`] ?? 0;
  }

  beforeAll(async () => {
    await admin.connect();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await Promise.all(connections.map((each) => each.close().catch(() => {})));
    await admin.close();
  });

  it('hands an event published on one instance to the listeners of both, once each, in order', async () => {
    const [a, b] = [await bus(), await bus()];
    const session = sessionId();
    const onA: SessionEvent[] = [];
    const onB: SessionEvent[] = [];
    a.subscribe(session, (event) => onA.push(event));
    b.subscribe(session, (event) => onB.push(event));
    await waitFor(async () => (await subscribers(session)) === 2);

    const sent = Array.from({ length: 100 }, (_, i) => widget(i + 1));
    for (const event of sent) a.publish(session, event);
    // The last event comes after any duplicate of the others would have.
    a.publish(session, ended);
    await waitFor(() => onA.at(-1)?.type === 'turn' && onB.at(-1)?.type === 'turn');

    expect(onA).toEqual([...sent, ended]);
    expect(onB).toEqual([...sent, ended]);
  });

  it('listens on one connection per instance, and leaves the channel with its last listener', async () => {
    const a = await bus();
    const session = sessionId();
    const first = a.subscribe(session, () => {});
    const second = a.subscribe(session, () => {});
    expect(a.listenerCount(session)).toBe(2);
    await waitFor(async () => (await subscribers(session)) === 1);

    first();
    first(); // a second call changes nothing
    expect(a.listenerCount(session)).toBe(1);
    // Commands on the subscriber connection run in order: once another session's SUBSCRIBE is
    // answered, an UNSUBSCRIBE sent by `first()` would have been too.
    const other = sessionId();
    a.subscribe(other, () => {});
    await waitFor(async () => (await subscribers(other)) === 1);
    expect(await subscribers(session)).toBe(1);

    second();
    expect(a.listenerCount(session)).toBe(0);
    await waitFor(async () => (await subscribers(session)) === 0);
  });

  it('drops a malformed message, with a log, and hands on the ones after it', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const a = await bus();
    const session = sessionId();
    const seen: SessionEvent[] = [];
    a.subscribe(session, (event) => seen.push(event));
    await waitFor(async () => (await subscribers(session)) === 1);

    await admin.publish(`${prefix}${session}`, '{not json');
    a.publish(session, ended);
    await waitFor(() => seen.length === 1);

    expect(seen).toEqual([ended]);
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining('malformed message'),
      expect.any(SyntaxError),
    );
  });

  describe('with its own connections', () => {
    async function clients(): Promise<[BusRedisClient, BusRedisClient]> {
      const publisher = createClient({ url });
      const subscriber = publisher.duplicate();
      subscriber.on('error', () => {}); // the killed connection's error
      await Promise.all([publisher.connect(), subscriber.connect()]);
      return [publisher, subscriber];
    }

    it('closes both connections', async () => {
      const [publisher, subscriber] = await clients();
      const buses = redisBuses(publisher, subscriber);
      buses.bus<SessionEvent>(prefix).subscribe(sessionId(), () => {});
      await buses.close();
      expect(publisher.isOpen).toBe(false);
      expect(subscriber.isOpen).toBe(false);
    });

    it('never throws on publish: a failure is logged', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const [publisher, subscriber] = await clients();
      const buses = redisBuses(publisher, subscriber);
      const a = buses.bus<SessionEvent>(prefix);
      await buses.close();
      expect(() => a.publish(sessionId(), ended)).not.toThrow();
      await waitFor(() => error.mock.calls.length > 0);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('was lost'), expect.any(Error));
    });

    it('listens again once its subscriber connection is back', async () => {
      const [publisher, subscriber] = await clients();
      const id = await subscriber.clientId();
      const buses = redisBuses(publisher, subscriber);
      connections.push(buses);
      const a = buses.bus<SessionEvent>(prefix);
      const session = sessionId();
      const seen: SessionEvent[] = [];
      a.subscribe(session, (event) => seen.push(event));
      await waitFor(async () => (await subscribers(session)) === 1);

      const ready = new Promise((resolve) => subscriber.once('ready', resolve));
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]);
      // node-redis may be back before a NUMSUB could see the channel empty: the new
      // connection's id says the old one is gone.
      await ready;
      expect(await subscriber.clientId()).not.toBe(id);
      await waitFor(async () => (await subscribers(session)) === 1);

      a.publish(session, ended);
      await waitFor(() => seen.length === 1);
      expect(seen).toEqual([ended]);
    });
  });
});
