// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { gate } from '../../tests/helpers/gate';
import { textAnswer, uiStream } from '../../tests/helpers/ui-stream';
import { sessionsKey } from '../api';
import { leavePrompt } from './pending-prompt';
import { useSessionChat } from './use-session-chat';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const history: QuantaMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'first question' }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'first answer', state: 'done' }] },
];

/** A turn's UI message stream answering `text`, ended, or held open until `held` resolves. */
function answer(text: string, held?: Promise<void>) {
  return textAnswer(`a_${text}`, async (delta) => {
    delta(text);
    await held;
  });
}

/** Routes the hook's requests: each call to the messages route takes the next answer. */
function server(...answers: (() => Response)[]) {
  const fetch = vi.fn(async (url: string | URL | Request, _init?: RequestInit) => {
    if (String(url).endsWith('/stop')) return Response.json({ stopped: true });
    const next = answers.shift();
    if (!next) throw new Error(`unexpected request to ${String(url)}`);
    return next();
  });
  vi.stubGlobal('fetch', fetch);
  const bodies = () =>
    fetch.mock.calls
      .filter(([url]) => String(url).endsWith('/messages'))
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { fetch, bodies };
}

function chat(sessionId: string, messages: QuantaMessage[] = history) {
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook(() => useSessionChat(sessionId, messages, false), { wrapper });
  return { ...view, invalidate };
}

const ended = (result: { current: ReturnType<typeof useSessionChat> }) =>
  waitFor(() => expect(result.current.status).toBe('ready'));

it('sends only the new message, names the message it edits, and asks for a regeneration', async () => {
  const { bodies } = server(
    () => answer('two'),
    () => answer('three'),
    () => answer('again'),
  );
  const { result } = chat('s1');

  await act(() => result.current.send('second question'));
  await ended(result);
  act(() => result.current.edit('u1', 'first, edited'));
  await ended(result);
  act(() => result.current.regenerate());
  await ended(result);

  const [submit, edit, regenerate] = bodies();
  expect(submit).toMatchObject({
    trigger: 'submit',
    message: { role: 'user', parts: [{ type: 'text', text: 'second question' }] },
  });
  expect(edit).toMatchObject({ trigger: 'edit', message: { id: 'u1' } });
  expect(regenerate).toEqual({ trigger: 'regenerate' });
  expect(result.current.messages.map(({ role }) => role)).toEqual(['user', 'assistant']);
});

it('refetches the sessions list when a turn ends: the title may have changed', async () => {
  server(() => answer('two'));
  const { result, invalidate } = chat('s2');
  await act(() => result.current.send('second question'));
  await ended(result);
  await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: sessionsKey }));
});

it('Retry sends a prompt the server refused again, once', async () => {
  const { bodies } = server(
    () =>
      Response.json(
        { error: { code: 'turn_active', message: 'A turn is running.' } },
        { status: 409 },
      ),
    () => answer('two'),
  );
  const { result } = chat('s3');
  await act(() => result.current.send('second question'));
  await waitFor(() => expect(result.current.error?.message).toBe('A turn is running.'));

  act(() => result.current.retry());
  await ended(result);
  expect(bodies().map((body) => body.message.parts[0].text)).toEqual([
    'second question',
    'second question',
  ]);
  expect(result.current.messages.filter(({ role }) => role === 'user')).toHaveLength(2);
  expect(result.current.error).toBeUndefined();
});

it('Stop is shown at once and asks the server to stop the turn', async () => {
  const { opened: held, open: release } = gate();
  const { fetch } = server(() => answer('partial', held));
  const { result } = chat('s4');
  act(() => void result.current.send('tell me a story'));
  await waitFor(() => expect(result.current.status).toBe('streaming'));

  act(() => result.current.stop());
  expect(result.current.stopRequested).toBe(true);
  await waitFor(() =>
    expect(fetch).toHaveBeenCalledWith(
      '/api/sessions/s4/stop',
      expect.objectContaining({ method: 'POST' }),
    ),
  );
  release();
  await ended(result);
  // The next turn is not a stopped one.
  server(() => answer('next'));
  await act(() => result.current.send('and then?'));
  expect(result.current.stopRequested).toBe(false);
});

it('sends the prompt the home page left for a new session', async () => {
  const { bodies } = server(() => answer('hello'));
  leavePrompt('s5', 'hi there');
  const { result } = chat('s5', []);
  await waitFor(() => expect(bodies()).toHaveLength(1));
  expect(bodies()[0].message.parts[0].text).toBe('hi there');
  await ended(result);
});

describe('reading a turn that runs on the server', () => {
  const prompt: QuantaMessage = {
    id: 'u2',
    role: 'user',
    parts: [{ type: 'text', text: 'what is 2+2?' }],
  };
  // The answer as the page loaded it: saved while its tool call's arguments were streaming.
  const partial: QuantaMessage = {
    id: 'a2',
    role: 'assistant',
    metadata: { status: 'streaming' },
    parts: [
      { type: 'step-start' },
      { type: 'text', text: 'Let me add.', state: 'done' },
      { type: 'tool-add', toolCallId: 'c1', state: 'input-streaming', input: undefined },
    ],
  };
  const output = { isError: false, modelText: '4', durationMs: 1 };
  // The stream route replays the turn from its first chunk, then follows it to its end.
  const replay = [
    { type: 'start', messageId: 'a2', messageMetadata: { status: 'streaming' } },
    { type: 'start-step' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Let me add.' },
    { type: 'text-end', id: 't1' },
    { type: 'tool-input-start', toolCallId: 'c1', toolName: 'add' },
    { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"a":2,"b":2}' },
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'add', input: { a: 2, b: 2 } },
    { type: 'tool-output-available', toolCallId: 'c1', output },
    { type: 'finish-step' },
    { type: 'start-step' },
    { type: 'text-start', id: 't2' },
    { type: 'text-delta', id: 't2', delta: 'It is 4.' },
    { type: 'text-end', id: 't2' },
    { type: 'finish-step' },
    { type: 'message-metadata', messageMetadata: { status: 'complete' } },
    { type: 'finish' },
  ];

  it('replays the turn over the answer the page holds: nothing twice, nothing missing', async () => {
    const { fetch } = server(() => uiStream(replay));
    const { result } = chat('s6', [...history, prompt, partial]);
    await act(() => result.current.resume());

    expect(fetch).toHaveBeenCalledWith(
      '/api/sessions/s6/stream',
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    const messages = result.current.messages;
    expect(messages.map(({ id }) => id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    const replayed = messages[3] as QuantaMessage;
    expect(replayed.parts.map((part) => part.type)).toEqual([
      'step-start',
      'text',
      'tool-add',
      'step-start',
      'text',
    ]);
    expect(replayed.parts[2]).toMatchObject({ state: 'output-available', output });
    expect(replayed.metadata?.status).toBe('complete');
  });

  it('leaves the transcript as it is when no turn runs', async () => {
    server(() => new Response(null, { status: 204 }));
    const { result } = chat('s7');
    await act(() => result.current.resume());
    expect(result.current.messages).toEqual(history);
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeUndefined();
  });

  it('does not read a turn again while this tab reads it', async () => {
    const { opened: held, open: release } = gate();
    const { fetch } = server(() => answer('partial', held));
    const { result } = chat('s8');
    act(() => void result.current.send('tell me a story'));
    await waitFor(() => expect(result.current.status).toBe('streaming'));
    await act(() => result.current.resume());
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual(['/api/sessions/s8/messages']);
    release();
    await ended(result);
  });
});
