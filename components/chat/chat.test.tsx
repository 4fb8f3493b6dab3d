// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { sessionView } from '../../tests/helpers/session-view';
import { textAnswer } from '../../tests/helpers/ui-stream';
import { sessionsKey } from '../api';
import { Chat } from './chat';

vi.mock('virtua', () => import('@/tests/helpers/every-row-virtualizer'));

const router = vi.hoisted(() => ({ refresh: vi.fn(), push: vi.fn() }));
vi.mock('next/navigation', () => ({
  useRouter: () => router,
  useSearchParams: () => new URLSearchParams(),
}));

// Every render of a text part, counted by its text: a row that renders again renders its text.
const renders = new Map<string, number>();
vi.mock('./markdown', () => ({
  Markdown: ({ text }: { text: string }) => {
    renders.set(text, (renders.get(text) ?? 0) + 1);
    return <p>{text}</p>;
  },
}));

// The routes stream in real time: on a loaded machine a turn takes longer than vitest's 5 s
// default. These waits bound how long a turn may take, not how fast it must be.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const session = sessionView();

const history: QuantaMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'first question' }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'first answer', state: 'done' }] },
];

/** A messages route answering with a UI message stream of `words`, one every 30 ms. */
function streamingRoute(words: string[]) {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return async () =>
    textAnswer('a2', async (delta) => {
      for (const word of words) {
        await pause(30);
        delta(word);
      }
      // Still streaming for a moment after the last word: the end of a turn may re-render rows
      // (their Edit buttons come back), streaming must not.
      await pause(200);
    });
}

it('does not render earlier message rows again while a later message streams', async () => {
  const words = ['one ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven ', 'eight'];
  vi.stubGlobal('fetch', vi.fn(streamingRoute(words)));
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Chat
        session={session}
        initialMessages={history}
        initialHasEarlier={false}
        initialWidgetStates={{}}
      />
    </QueryClientProvider>,
  );
  expect(renders.get('first answer')).toBeGreaterThan(0);

  fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), {
    target: { value: 'second question' },
  });
  fireEvent.submit(screen.getByRole('textbox', { name: 'Message' }).closest('form') as HTMLElement);
  // Sending may render the rows once (the last answer loses its Regenerate button); from the
  // first streamed word to the last, earlier rows must stay as they are.
  // The first paint may already hold more than one word: a slow machine renders less often.
  await waitFor(() => expect(screen.getByText(/^one\b/)).toBeInTheDocument(), {
    timeout: 10_000,
  });
  const before = renders.get('first answer');
  await waitFor(() => expect(screen.getByText(words.join('').trim())).toBeInTheDocument(), {
    timeout: 10_000,
  });

  // The new answer painted several times as it grew; the earlier answer not once more.
  const paints = [...renders.keys()].filter((text) => text.startsWith('one '));
  expect(paints.length).toBeGreaterThan(2);
  expect(renders.get('first answer')).toBe(before);
});

it('ends a turn without reloading the page: the sessions list is refetched instead', async () => {
  vi.stubGlobal('fetch', vi.fn(streamingRoute(['done'])));
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  render(
    <QueryClientProvider client={queryClient}>
      <Chat
        session={session}
        initialMessages={[]}
        initialHasEarlier={false}
        initialWidgetStates={{}}
      />
    </QueryClientProvider>,
  );
  // A new conversation: the focus is in the composer.
  const field = screen.getByRole('textbox', { name: 'Message' });
  expect(field).toHaveFocus();
  fireEvent.change(field, { target: { value: 'hello' } });
  fireEvent.submit(field.closest('form') as HTMLElement);
  await waitFor(() => expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument());
  await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument(), {
    timeout: 10_000,
  });
  await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: sessionsKey }));
  expect(router.refresh).not.toHaveBeenCalled();
  expect(field).toHaveFocus();
});

describe('a turn the page was loaded in', () => {
  const prompt: QuantaMessage = {
    id: 'u2',
    role: 'user',
    parts: [{ type: 'text', text: 'tell me a story' }],
  };
  const partial = (text: string): QuantaMessage => ({
    id: 'a2',
    role: 'assistant',
    parts: text ? [{ type: 'text', text, state: 'streaming' }] : [],
    metadata: { status: 'streaming' },
  });

  /**
   * The server: the stream route replays the running turn (its words so far) and holds it open
   * until Stop, which ends it as stopped.
   */
  function runningTurn(words: string[]) {
    const encoder = new TextEncoder();
    let stopTurn = () => {};
    const stopped = new Promise<void>((resolve) => {
      stopTurn = resolve;
    });
    const stream = () =>
      new Response(
        new ReadableStream({
          async start(controller) {
            const send = (chunk: object) =>
              controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
            send({ type: 'start', messageId: 'a2', messageMetadata: { status: 'streaming' } });
            send({ type: 'start-step' });
            if (words.length > 0) {
              send({ type: 'text-start', id: 't' });
              for (const word of words) send({ type: 'text-delta', id: 't', delta: word });
            }
            await stopped;
            if (words.length > 0) send({ type: 'text-end', id: 't' });
            send({ type: 'finish-step' });
            send({ type: 'message-metadata', messageMetadata: { status: 'stopped' } });
            send({ type: 'finish' });
            controller.enqueue(encoder.encode('data: [DONE]\n\n'));
            controller.close();
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const fetch = vi.fn(async (url: string | URL | Request) => {
      const path = String(url);
      if (path.endsWith('/stream')) return stream();
      if (path.endsWith('/stop')) {
        stopTurn();
        return Response.json({ stopped: true });
      }
      return Response.json({ models: [], defaultId: null });
    });
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  function show(view = sessionView({ turnActive: true }), messages: QuantaMessage[]) {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Chat
          session={view}
          initialMessages={messages}
          initialHasEarlier={false}
          initialWidgetStates={{}}
          readOnlyReason={view.isOwner ? undefined : 'This session is read-only.'}
        />
      </QueryClientProvider>,
    );
  }

  const field = () => screen.getByRole('textbox', { name: 'Message' });

  it('streams on over its partial answer, holds the composer, and Stop ends it as stopped', async () => {
    const fetch = runningTurn(['Once ', 'upon ', 'a time']);
    show(undefined, [...history, prompt, partial('Once ')]);

    expect(field()).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(
      'A turn is running: wait for its answer, or stop it.',
    );
    // Replayed over the partial answer: once, whole.
    await waitFor(() => expect(screen.getByText('Once upon a time')).toBeInTheDocument());
    expect(screen.queryByText('Once')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(
        '/api/sessions/s1/stop',
        expect.objectContaining({ method: 'POST' }),
      ),
    );
    // The server's last word on the stream says how the turn ended; the composer is free again.
    await waitFor(() => expect(field()).toBeEnabled());
    expect(screen.getByRole('status')).toHaveTextContent('Stopped');
    expect(screen.getAllByText('Once upon a time')).toHaveLength(1);
  });

  it('says a turn stopped before any text stopped before answering', async () => {
    runningTurn([]);
    show(undefined, [...history, prompt]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(field()).toBeEnabled());
    expect(screen.getByText('Stopped before answering')).toBeInTheDocument();
  });

  it('shows a reader the answer as it comes, with no Stop', async () => {
    runningTurn(['Once ', 'upon']);
    show(sessionView({ turnActive: true, isOwner: false, visibility: 'public' }), [
      ...history,
      prompt,
    ]);
    await waitFor(() => expect(screen.getByText('Once upon')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(field()).toBeDisabled();
  });
});

describe('a session longer than its page', () => {
  const older: QuantaMessage[] = [
    { id: 'u0', role: 'user', parts: [{ type: 'text', text: 'zeroth question' }] },
    {
      id: 'a0',
      role: 'assistant',
      parts: [
        {
          type: 'tool-show_counter',
          toolCallId: 'c0',
          state: 'output-available',
          input: {},
          output: {
            isError: false,
            modelText: 'shown',
            durationMs: 1,
            ui: { kind: 'widget', label: 'Open counter', widget: 'counter', data: { count: 0 } },
          },
        },
        { type: 'text', text: 'zeroth answer', state: 'done' },
      ],
    },
  ];

  function show(answer: () => Promise<Response>) {
    const fetch = vi.fn(async (url: string | URL | Request) =>
      String(url).includes('/messages?before=')
        ? answer()
        : Response.json({ models: [], defaultId: null }),
    );
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Chat
          session={session}
          initialMessages={history}
          initialHasEarlier
          initialWidgetStates={{}}
        />
      </QueryClientProvider>,
    );
    return fetch;
  }

  it('loads the messages before the first one, with their widgets’ states, when asked', async () => {
    const fetch = show(async () =>
      Response.json({
        messages: older,
        hasEarlier: false,
        widgetStates: { c0: { data: { count: 7 }, version: 2 } },
      }),
    );
    expect(screen.queryByText('zeroth answer')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));

    await waitFor(() => expect(screen.getByText('zeroth answer')).toBeInTheDocument());
    expect(fetch).toHaveBeenCalledWith('/api/sessions/s1/messages?before=u1', expect.anything());
    const rows = screen.getAllByRole('listitem').map((row) => row.textContent);
    expect(rows[0]).toContain('zeroth question');
    expect(rows[2]).toContain('first question');
    // The first message is the session's first: nothing more to load.
    expect(screen.queryByRole('button', { name: /earlier messages/ })).not.toBeInTheDocument();
    // The widget opens on the state the page brought, not on its first snapshot.
    fireEvent.click(screen.getByRole('button', { name: 'Open counter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Counter' });
    await waitFor(() => expect(dialog).toHaveTextContent('7'));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says when earlier messages could not be loaded, and tries again when asked', async () => {
    const answers = [
      async () => Response.json({ error: { code: 'internal', message: 'no' } }, { status: 500 }),
      async () => Response.json({ messages: older, hasEarlier: true, widgetStates: {} }),
    ];
    show(() => (answers.shift() as () => Promise<Response>)());
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Earlier messages could not be loaded. Try again.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    await waitFor(() => expect(screen.getByText('zeroth answer')).toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // More remain before these.
    expect(screen.getByRole('button', { name: 'Load earlier messages' })).toBeInTheDocument();
  });
});
