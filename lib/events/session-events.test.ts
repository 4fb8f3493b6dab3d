import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../protocol';
import { InMemoryBus } from './bus';
import {
  listenerCount,
  publish,
  type SessionEventBus,
  sessionEventBus,
  setSessionEventBus,
  subscribe,
} from './session-events';

const started: SessionEvent = { type: 'turn', status: 'started' };
const ended: SessionEvent = { type: 'turn', status: 'ended' };
const widget: SessionEvent = { type: 'widget', toolCallId: 'call-1', data: { n: 4 }, version: 2 };

describe('InMemoryBus', () => {
  it('hands each event, in order, to every listener of its session and to no other', () => {
    const bus = new InMemoryBus<SessionEvent>();
    const a: SessionEvent[] = [];
    const b: SessionEvent[] = [];
    const elsewhere: SessionEvent[] = [];
    bus.subscribe('s1', (event) => a.push(event));
    bus.subscribe('s1', (event) => b.push(event));
    bus.subscribe('s2', (event) => elsewhere.push(event));
    bus.publish('s1', started);
    bus.publish('s1', widget);
    bus.publish('s1', ended);
    expect(a).toEqual([started, widget, ended]);
    expect(b).toEqual([started, widget, ended]);
    expect(elsewhere).toEqual([]);
  });

  it('publishes to a session nobody watches without keeping anything', () => {
    const bus = new InMemoryBus<SessionEvent>();
    bus.publish('nobody', started);
    expect(bus.listenerCount('nobody')).toBe(0);
  });

  it('stops calling a listener once unsubscribed, and forgets an empty channel', () => {
    const bus = new InMemoryBus<SessionEvent>();
    const seen: SessionEvent[] = [];
    const unsubscribe = bus.subscribe('s1', (event) => seen.push(event));
    expect(bus.listenerCount('s1')).toBe(1);
    bus.publish('s1', started);
    unsubscribe();
    unsubscribe(); // twice is harmless
    bus.publish('s1', ended);
    expect(seen).toEqual([started]);
    expect(bus.listenerCount('s1')).toBe(0);
    expect((bus as unknown as { channels: Map<string, unknown> }).channels.size).toBe(0);
  });

  it('counts the same function subscribed twice as two subscriptions', () => {
    const bus = new InMemoryBus<SessionEvent>();
    const listener = vi.fn();
    const first = bus.subscribe('s1', listener);
    const second = bus.subscribe('s1', listener);
    bus.publish('s1', started);
    expect(listener).toHaveBeenCalledTimes(2);
    first();
    bus.publish('s1', ended);
    expect(listener).toHaveBeenCalledTimes(3);
    second();
    expect(bus.listenerCount('s1')).toBe(0);
  });

  it('lets a listener unsubscribe while an event is handed out, reaching every listener once', () => {
    const bus = new InMemoryBus<SessionEvent>();
    const later = vi.fn();
    const unsubscribeLater = bus.subscribe('s1', () => unsubscribeLater());
    bus.subscribe('s1', later);
    bus.publish('s1', started);
    bus.publish('s1', ended);
    expect(later).toHaveBeenCalledTimes(2);
    expect(bus.listenerCount('s1')).toBe(1);
  });

  it('keeps handing out an event when one listener throws', () => {
    const bus = new InMemoryBus<SessionEvent>();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const after = vi.fn();
    bus.subscribe('s1', () => {
      throw new Error('broken viewer');
    });
    bus.subscribe('s1', after);
    expect(() => bus.publish('s1', started)).not.toThrow();
    expect(after).toHaveBeenCalledWith(started);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });
});

describe('the process bus', () => {
  let restore: SessionEventBus | undefined;
  afterEach(() => {
    if (restore) setSessionEventBus(restore);
    restore = undefined;
  });

  it('is one bus on globalThis, reached by publish, subscribe and listenerCount', () => {
    expect(sessionEventBus()).toBe(sessionEventBus());
    expect(sessionEventBus()).toBe(
      (globalThis as { quantaSessionEvents?: SessionEventBus }).quantaSessionEvents,
    );
    const seen: SessionEvent[] = [];
    const unsubscribe = subscribe('process-s1', (event) => seen.push(event));
    expect(listenerCount('process-s1')).toBe(1);
    publish('process-s1', widget);
    unsubscribe();
    expect(seen).toEqual([widget]);
    expect(listenerCount('process-s1')).toBe(0);
  });

  it('can be replaced by another implementation of the interface', () => {
    const published: [string, SessionEvent][] = [];
    const other: SessionEventBus = {
      publish: (sessionId, event) => void published.push([sessionId, event]),
      subscribe: () => () => {},
      listenerCount: () => 7,
    };
    restore = setSessionEventBus(other);
    publish('s9', ended);
    expect(published).toEqual([['s9', ended]]);
    expect(listenerCount('s9')).toBe(7);
    expect(setSessionEventBus(restore)).toBe(other);
    restore = undefined;
  });
});
