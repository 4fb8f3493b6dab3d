// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ChatStatus } from 'ai';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { QuantaMessage, SessionDetail, SessionEvent } from '@/lib/protocol';
import { sessionView } from '../../tests/helpers/session-view';
import { sessionsKey } from '../api';
import { useLiveSession } from './use-live-session';

/** The browser's EventSource (happy-dom has none): the test plays the server's events. */
class FakeEventSource {
  static latest: FakeEventSource;
  onmessage: ((message: MessageEvent<string>) => void) | null = null;
  onopen: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.latest = this;
  }
  close() {}
}

const emit = (event: SessionEvent) =>
  act(() =>
    FakeEventSource.latest.onmessage?.(
      new MessageEvent('message', { data: JSON.stringify(event) }),
    ),
  );

beforeEach(() => vi.stubGlobal('EventSource', FakeEventSource));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = sessionView({ title: 'New chat', visibility: 'public', isOwner: false });

const question: QuantaMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] };
const reply: QuantaMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'hello', state: 'done' }],
};

/** The session as the server holds it, answered to every catch-up. */
function serverHolds(detail: SessionDetail) {
  const fetch = vi.fn(async () => Response.json(detail));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function live(initialMessages: QuantaMessage[] = [], status: ChatStatus = 'ready') {
  let messages = initialMessages;
  const setMessages = vi.fn(
    (update: QuantaMessage[] | ((m: QuantaMessage[]) => QuantaMessage[])) => {
      messages = typeof update === 'function' ? update(messages) : update;
    },
  );
  const onSessionView = vi.fn();
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook(
    ({ status }) =>
      useLiveSession({
        session,
        initialWidgetStates: { c1: { data: { count: 1 }, version: 1 } },
        status,
        setMessages,
        onSessionView,
      }),
    { wrapper, initialProps: { status } },
  );
  return { ...view, messages: () => messages, onSessionView, invalidate };
}

it('keeps the newest state of each widget, whoever changed it', () => {
  const { result } = live();
  emit({ type: 'widget', toolCallId: 'c1', data: { count: 3 }, version: 3 });
  expect(result.current.widgetStates.c1).toEqual({ data: { count: 3 }, version: 3 });
  // A late, older state loses.
  emit({ type: 'widget', toolCallId: 'c1', data: { count: 2 }, version: 2 });
  act(() => result.current.rememberState('c1', { data: { count: 2 }, version: 2 }));
  expect(result.current.widgetStates.c1).toEqual({ data: { count: 3 }, version: 3 });
});

it('announces a turn run elsewhere, then loads its transcript and the session when it ends', async () => {
  const renamed = { ...session, title: 'Greetings' };
  const fetch = serverHolds({ session: renamed, messages: [question, reply], widgetStates: {} });
  const { result, messages, onSessionView, invalidate } = live();

  emit({ type: 'turn', status: 'started' });
  expect(result.current.remoteTurn).toBe(true);
  emit({ type: 'turn', status: 'ended' });

  await waitFor(() => expect(result.current.remoteTurn).toBe(false));
  expect(fetch).toHaveBeenCalledWith('/api/sessions/s1', expect.anything());
  expect(messages()).toEqual([question, reply]);
  expect(onSessionView).toHaveBeenCalledWith(renamed);
  expect(invalidate).toHaveBeenCalledWith({ queryKey: sessionsKey });
});

it('takes no news from the events of this tab’s own turn: its stream brings it', async () => {
  const fetch = serverHolds({ session, messages: [], widgetStates: {} });
  const { result } = live([], 'streaming');
  emit({ type: 'turn', status: 'started' });
  emit({ type: 'turn', status: 'ended' });
  expect(result.current.remoteTurn).toBe(false);
  expect(fetch).not.toHaveBeenCalled();
});

it('loads the session again when this tab’s stream fails, keeping a prompt the server refused', async () => {
  serverHolds({ session, messages: [question, reply], widgetStates: {} });
  const refused: QuantaMessage = {
    id: 'u2',
    role: 'user',
    parts: [{ type: 'text', text: 'again' }],
  };
  // The server has an answer this tab never got.
  const { rerender, messages } = live([question, refused], 'submitted');
  rerender({ status: 'error' });
  await waitFor(() => expect(messages()).toEqual([question, reply, refused]));
});
