// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { QuantaMessage, SessionDetail, SessionEvent, SessionView } from '@/lib/protocol';
import { gate } from '../../tests/helpers/gate';
import { sessionView } from '../../tests/helpers/session-view';
import { textAnswer, uiStream } from '../../tests/helpers/ui-stream';
import { sessionsKey } from '../api';
import { useLiveSession } from './use-live-session';
import { useSessionChat } from './use-session-chat';

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
  metadata: { status: 'complete' },
};
const partial: QuantaMessage = {
  id: 'a1',
  role: 'assistant',
  parts: [{ type: 'text', text: 'hel', state: 'streaming' }],
  metadata: { status: 'streaming' },
};

/** The stream route's replay of the turn answering `hello`, word by word, to its final word. */
const replayEnded = () =>
  uiStream([
    { type: 'start', messageId: 'a1', messageMetadata: { status: 'streaming' } },
    { type: 'start-step' },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'hel' },
    { type: 'text-delta', id: 't', delta: 'lo' },
    { type: 'text-end', id: 't' },
    { type: 'finish-step' },
    { type: 'message-metadata', messageMetadata: { status: 'complete' } },
    { type: 'finish' },
  ]);

type Route = 'session' | 'stream' | 'messages' | 'stop';

/** The transcript as shown: who said what, and how the answer ended. */
const shown = (messages: QuantaMessage[]) =>
  messages.map(({ id, parts, metadata }) => ({
    id,
    text: parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    status: metadata?.status,
  }));
const answered = [
  { id: 'u1', text: 'hi', status: undefined },
  { id: 'a1', text: 'hello', status: 'complete' },
];

/** The server: each route answers its queued responses in turn; the session route, `holds`. */
function server(holds: SessionDetail, queued: Partial<Record<Route, (() => Response)[]>> = {}) {
  const fetch = vi.fn(async (url: string | URL | Request, _init?: RequestInit) => {
    const route = String(url).split('/')[4] ?? 'session';
    if (route === 'session') return Response.json(holds);
    const next = queued[route as Route]?.shift();
    if (!next) throw new Error(`unexpected request to ${String(url)}`);
    return next();
  });
  vi.stubGlobal('fetch', fetch);
  const asked = (route: Route) =>
    fetch.mock.calls.filter(([url]) => (String(url).split('/')[4] ?? 'session') === route).length;
  return { fetch, asked };
}

function live(initialMessages: QuantaMessage[] = [], view: SessionView = session) {
  const onSessionView = vi.fn();
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(
    () => {
      const chat = useSessionChat(view.id, initialMessages, false);
      const live = useLiveSession({
        session: view,
        initialWidgetStates: { c1: { data: { count: 1 }, version: 1 } },
        chat,
        onSessionView,
      });
      return { chat, live };
    },
    { wrapper },
  );
  return { ...hook, onSessionView, invalidate };
}

const followed = (result: { current: { live: { following: boolean } } }) =>
  waitFor(() => expect(result.current.live.following).toBe(false));

it('keeps the newest state of each widget, whoever changed it', () => {
  server({ session, messages: [], hasEarlier: false, widgetStates: {} });
  const { result } = live();
  emit({ type: 'widget', toolCallId: 'c1', data: { count: 3 }, version: 3 });
  expect(result.current.live.widgetStates.c1).toEqual({ data: { count: 3 }, version: 3 });
  // A late, older state loses.
  emit({ type: 'widget', toolCallId: 'c1', data: { count: 2 }, version: 2 });
  act(() => result.current.live.rememberState('c1', { data: { count: 2 }, version: 2 }));
  expect(result.current.live.widgetStates.c1).toEqual({ data: { count: 3 }, version: 3 });
});

it('streams in a turn started elsewhere: its prompt from the server, then its answer', async () => {
  const renamed = { ...session, title: 'Greetings', turnActive: true };
  const { asked } = server(
    { session: renamed, messages: [question], hasEarlier: false, widgetStates: {} },
    { stream: [replayEnded] },
  );
  const { result, onSessionView, invalidate } = live();

  emit({ type: 'turn', status: 'started' });
  expect(result.current.live.following).toBe(true);
  await followed(result);
  expect(shown(result.current.chat.messages)).toEqual(answered);
  expect(onSessionView).toHaveBeenCalledWith(renamed);
  expect(invalidate).toHaveBeenCalledWith({ queryKey: sessionsKey });

  // Its end is no news: the stream brought it.
  emit({ type: 'turn', status: 'ended' });
  expect(asked('session')).toBe(1);
  expect(asked('stream')).toBe(1);
});

it('loads a turn started elsewhere that has already ended, without asking for its stream', async () => {
  const { asked } = server({
    session,
    messages: [question, reply],
    hasEarlier: false,
    widgetStates: {},
  });
  const { result } = live();
  emit({ type: 'turn', status: 'started' });
  await followed(result);
  expect(result.current.chat.messages).toEqual([question, reply]);
  expect(asked('stream')).toBe(0);
});

it('resumes the turn the page was loaded in, over its partial answer', async () => {
  const { asked } = server(
    { session, messages: [], hasEarlier: false, widgetStates: {} },
    { stream: [replayEnded] },
  );
  const { result } = live([question, partial], { ...session, turnActive: true });
  expect(result.current.live.following).toBe(true);
  await followed(result);
  expect(shown(result.current.chat.messages)).toEqual(answered);
  // The page was fresh: nothing to catch up on.
  expect(asked('session')).toBe(0);
});

it('loads the stored answer when the turn the page was loaded in has ended meanwhile', async () => {
  server(
    { session, messages: [question, reply], hasEarlier: false, widgetStates: {} },
    { stream: [() => new Response(null, { status: 204 })] },
  );
  const { result } = live([question, partial], { ...session, turnActive: true });
  await followed(result);
  expect(result.current.chat.messages).toEqual([question, reply]);
});

it('loads the stored answer, not an error, when a followed stream breaks', async () => {
  const broken = () =>
    new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(
            new TextEncoder().encode(`data: ${JSON.stringify({ type: 'start' })}\n\n`),
          );
          controller.error(new TypeError('network error'));
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } },
    );
  const { asked } = server(
    { session, messages: [question, reply], hasEarlier: false, widgetStates: {} },
    { stream: [broken] },
  );
  const { result } = live([question, partial], { ...session, turnActive: true });
  await followed(result);
  expect(result.current.chat.messages).toEqual([question, reply]);
  expect(result.current.chat.error).toBeUndefined();
  expect(result.current.chat.status).toBe('ready');
  expect(asked('session')).toBe(1);
});

it('catches up and streams in a running turn when the events connect again', async () => {
  const { asked } = server(
    {
      session: { ...session, turnActive: true },
      messages: [question],
      hasEarlier: false,
      widgetStates: {},
    },
    { stream: [replayEnded] },
  );
  const { result } = live();
  act(() => FakeEventSource.latest.onopen?.());
  expect(asked('session')).toBe(0);
  act(() => FakeEventSource.latest.onopen?.());
  await followed(result);
  expect(asked('stream')).toBe(1);
  expect(shown(result.current.chat.messages)).toEqual(answered);
});

it('takes no news from the events of this tab’s own turn: its stream brings it', async () => {
  const { opened: held, open: release } = gate();
  const { asked } = server(
    { session, messages: [], hasEarlier: false, widgetStates: {} },
    {
      messages: [
        () =>
          textAnswer('a2', async (delta) => {
            delta('partial');
            await held;
          }),
      ],
    },
  );
  const { result } = live([], { ...session, isOwner: true });
  act(() => void result.current.chat.send('tell me'));
  await waitFor(() => expect(result.current.chat.status).toBe('streaming'));
  emit({ type: 'turn', status: 'started' });
  expect(result.current.live.following).toBe(false);
  release();
  await waitFor(() => expect(result.current.chat.status).toBe('ready'));
  emit({ type: 'turn', status: 'ended' });
  expect(asked('session')).toBe(0);
  expect(asked('stream')).toBe(0);
});

it('keeps this tab’s running turn when a catch-up asked before it lands during it, and catches up after', async () => {
  const { opened: held, open: release } = gate();
  const { opened: caughtUp, open: answerCatchUp } = gate();
  // Another tab's turn, which ended before this tab sent its prompt.
  const otherPrompt: QuantaMessage = { ...question, id: 'u9' };
  const otherAnswer: QuantaMessage = { ...reply, id: 'a9' };
  const answers = [
    () =>
      textAnswer('a2', async (delta) => {
        delta('partial');
        await held;
      }),
  ];
  let pages = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request) => {
      if (String(url).includes('/messages')) return (answers.shift() as () => Response)();
      pages += 1;
      const page = (messages: QuantaMessage[]) =>
        Response.json({ session, messages, hasEarlier: false, widgetStates: {} });
      if (pages === 1) {
        // As the server held it before this tab's prompt was stored.
        await caughtUp;
        return page([question, reply, otherPrompt, otherAnswer]);
      }
      // Once this tab's turn has ended: both turns stored.
      const [mine, answer] = result.current.chat.messages.slice(-2) as [
        QuantaMessage,
        QuantaMessage,
      ];
      return page([question, reply, otherPrompt, otherAnswer, mine, answer]);
    }),
  );
  const { result } = live([question, reply], { ...session, isOwner: true });
  // A turn ended that this tab did not read: it catches up...
  emit({ type: 'turn', status: 'ended' });
  // ...and sends its next prompt before that answer arrives.
  act(() => void result.current.chat.send('tell me'));
  await waitFor(() =>
    expect(shown(result.current.chat.messages).at(-1)).toMatchObject({ id: 'a2', text: 'partial' }),
  );
  await act(async () => {
    answerCatchUp();
    await caughtUp;
  });
  await waitFor(() => expect(pages).toBe(1));
  await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  const ids = () => result.current.chat.messages.map(({ id }) => id);
  // Not merged while the tab reads its own turn: that would drop the prompt and the answer.
  expect(ids()).toEqual(['u1', 'a1', expect.any(String), 'a2']);
  release();
  // Asked again once it has ended: the other tab's turn shows too.
  await waitFor(() => expect(ids()).toEqual(['u1', 'a1', 'u9', 'a9', expect.any(String), 'a2']));
  expect(pages).toBe(2);
});

it('loads the session again when this tab’s request fails, keeping a prompt the server refused', async () => {
  const refusal = () =>
    Response.json(
      { error: { code: 'turn_active', message: 'A turn is running.' } },
      { status: 409 },
    );
  server(
    { session, messages: [question, reply], hasEarlier: false, widgetStates: {} },
    { messages: [refusal] },
  );
  // The server has an answer this tab never got.
  const { result } = live([question], { ...session, isOwner: true });
  await act(() => result.current.chat.send('again'));
  await waitFor(() =>
    expect(result.current.chat.messages.map(({ id }) => id)).toEqual([
      'u1',
      'a1',
      expect.any(String),
    ]),
  );
  expect(result.current.chat.messages.at(-1)?.role).toBe('user');
  // The refusal stays said, for Retry.
  expect(result.current.chat.error?.message).toBe('A turn is running.');
});

it('catches up with the newest messages only, keeping the earlier ones it holds', async () => {
  const earlier: QuantaMessage = {
    id: 'a0',
    role: 'assistant',
    parts: [{ type: 'text', text: 'before', state: 'done' }],
  };
  const { fetch } = server({
    session,
    messages: [question, reply],
    hasEarlier: true,
    widgetStates: {},
  });
  const { result } = live([earlier, question]);
  emit({ type: 'turn', status: 'ended' });
  await waitFor(() => expect(result.current.chat.messages).toHaveLength(3));
  expect(fetch).toHaveBeenCalledWith('/api/sessions/s1?limit=50', expect.anything());
  expect(shown(result.current.chat.messages)).toEqual([
    { id: 'a0', text: 'before', status: undefined },
    ...answered,
  ]);
});
