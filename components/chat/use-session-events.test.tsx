// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SessionEvent } from '@/lib/protocol';
import { useSessionEvents } from './use-session-events';

/** A stand-in for the browser's EventSource (happy-dom has none), recording every instance. */
class FakeEventSource {
  static opened: FakeEventSource[] = [];
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onopen: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }
  close() {
    this.closed = true;
  }
  emit(data: string) {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
}

beforeEach(() => {
  FakeEventSource.opened = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const started: SessionEvent = { type: 'turn', status: 'started' };
const widget: SessionEvent = { type: 'widget', toolCallId: 'c1', data: { n: 1 }, version: 1 };

it('opens one stream per session, hands its events to the latest callback, and closes it', () => {
  const first = vi.fn();
  const second = vi.fn();
  const { rerender, unmount } = renderHook(({ onEvent }) => useSessionEvents('s1', onEvent), {
    initialProps: { onEvent: first },
  });
  const [source] = FakeEventSource.opened;
  expect(source?.url).toBe('/api/sessions/s1/events');
  source?.emit(JSON.stringify(started));
  expect(first).toHaveBeenCalledWith(started);

  rerender({ onEvent: second });
  expect(FakeEventSource.opened).toHaveLength(1); // a new callback is not a new connection
  source?.emit(JSON.stringify(widget));
  expect(second).toHaveBeenCalledWith(widget);
  expect(first).toHaveBeenCalledTimes(1);

  unmount();
  expect(source?.closed).toBe(true);
});

it('moves to the new session’s stream when the session changes', () => {
  const { rerender } = renderHook(({ id }) => useSessionEvents(id, () => {}), {
    initialProps: { id: 's1' },
  });
  rerender({ id: 's2' });
  expect(FakeEventSource.opened.map((source) => [source.url, source.closed])).toEqual([
    ['/api/sessions/s1/events', true],
    ['/api/sessions/s2/events', false],
  ]);
});

it('ignores data that is not an event', () => {
  const onEvent = vi.fn();
  renderHook(() => useSessionEvents('s1', onEvent));
  const [source] = FakeEventSource.opened;
  source?.emit('not json');
  source?.emit('null');
  source?.emit('42');
  expect(onEvent).not.toHaveBeenCalled();
});

it('does nothing where there is no EventSource', () => {
  vi.stubGlobal('EventSource', undefined);
  expect(() => renderHook(() => useSessionEvents('s1', () => {}))).not.toThrow();
});

it('tells when the stream opens, and whether it is again after a failure', () => {
  const onOpen = vi.fn();
  renderHook(() => useSessionEvents('s1', () => {}, onOpen));
  const [source] = FakeEventSource.opened;
  source?.onopen?.();
  expect(onOpen).toHaveBeenLastCalledWith(false);
  // The browser reconnects by itself after a failure, and opens the same source again.
  source?.onopen?.();
  expect(onOpen).toHaveBeenLastCalledWith(true);
});
