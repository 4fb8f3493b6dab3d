import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { ChatStore, type ChatTransport } from './chat-store';
import type { AnswerChunk } from './streaming-answer';

afterEach(() => void vi.useRealTimers());

const prompt: QuantaMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] };

/** A turn's stream the test writes chunk by chunk. */
function openStream() {
  let controller!: ReadableStreamDefaultController<AnswerChunk>;
  const stream = new ReadableStream<AnswerChunk>({
    start(c) {
      controller = c;
    },
  });
  const write = (...chunks: AnswerChunk[]) => {
    for (const chunk of chunks) controller.enqueue(chunk);
  };
  return { stream, write, end: () => controller.close() };
}

function store(transport: Partial<ChatTransport>, messages: QuantaMessage[] = [prompt]) {
  let ids = 0;
  const onFinish = vi.fn();
  const chat = new ChatStore({
    messages,
    transport: {
      send: async () => {
        throw new Error('no send');
      },
      reconnect: async () => null,
      ...transport,
    },
    generateId: () => `local${++ids}`,
    throttleMs: 50,
    onFinish,
  });
  const shown: { status: string; text: string }[] = [];
  chat.subscribe(() => {
    const { status, messages: now } = chat.getSnapshot();
    const last = now.at(-1);
    const text =
      last?.role === 'assistant' ? last.parts.map((p) => ('text' in p ? p.text : '')).join('') : '';
    shown.push({ status, text });
  });
  return { chat, shown, onFinish };
}

describe('ChatStore', () => {
  it('shows a streaming answer at most every throttleMs, a change of status at once', async () => {
    vi.useFakeTimers();
    const turn = openStream();
    const { chat, shown } = store({ send: async () => turn.stream });
    const sent = chat.sendMessage({ text: 'hello' });
    turn.write({ type: 'start', messageId: 'a1' }, { type: 'text-start', id: 't' });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown.map(({ status }) => status)).toEqual(['submitted', 'streaming']);

    for (const delta of ['a', 'b', 'c', 'd']) turn.write({ type: 'text-delta', id: 't', delta });
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(50);
    expect(shown.at(-1)).toEqual({ status: 'streaming', text: 'abcd' });
    expect(shown).toHaveLength(3);

    turn.write({ type: 'text-delta', id: 't', delta: 'e' }, { type: 'text-end', id: 't' });
    turn.end();
    await sent;
    expect(shown.at(-1)).toEqual({ status: 'ready', text: 'abcde' });
    expect(chat.messages.map(({ id }) => id)).toEqual(['u1', 'local1', 'a1']);
  });

  it('copies the growing answer for each update shown, not for each chunk', async () => {
    vi.useFakeTimers();
    const copies = vi.spyOn(globalThis, 'structuredClone');
    const turn = openStream();
    const { chat } = store({ send: async () => turn.stream });
    const sent = chat.sendMessage({ text: 'hello' });
    turn.write({ type: 'start', messageId: 'a1' }, { type: 'text-start', id: 't' });
    for (const delta of ['a', 'b', 'c', 'd']) turn.write({ type: 'text-delta', id: 't', delta });
    await vi.advanceTimersByTimeAsync(50);
    // Six chunks: shown when the answer began to stream, then once for the four deltas.
    expect(copies).toHaveBeenCalledTimes(2);
    turn.end();
    await sent;
    // Once the read is over, a later change shows the answer the page already has.
    const answer = chat.getSnapshot().messages.at(-1);
    chat.messages = [...chat.messages];
    expect(chat.getSnapshot().messages.at(-1)).toBe(answer);
    expect(copies).toHaveBeenCalledTimes(3);
    copies.mockRestore();
  });

  it('ends a turn with the error its stream sends, keeping the answer so far', async () => {
    const turn = openStream();
    const { chat } = store({ send: async () => turn.stream });
    turn.write(
      { type: 'start', messageId: 'a1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Half' },
      { type: 'error', errorText: 'The model stopped answering.' },
    );
    await chat.sendMessage({ text: 'hello' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe('The model stopped answering.');
    expect(chat.lastMessage).toMatchObject({ id: 'a1', parts: [{ text: 'Half' }] });
  });

  it('stops reading at Stop, though the stream sends nothing more: the chat is ready', async () => {
    const turn = openStream();
    const { chat, onFinish } = store({ send: async () => turn.stream });
    const sent = chat.sendMessage({ text: 'hello' });
    turn.write(
      { type: 'start', messageId: 'a1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'So' },
    );
    await vi.waitFor(() => expect(chat.status).toBe('streaming'));
    await chat.stop();
    await sent;
    expect(chat.status).toBe('ready');
    expect(chat.lastMessage).toMatchObject({ id: 'a1', parts: [{ text: 'So' }] });
    expect(onFinish).toHaveBeenCalledOnce();
  });

  it('replays a running turn over the partial answer it holds: one answer, whole', async () => {
    const partial: QuantaMessage = {
      id: 'a1',
      role: 'assistant',
      parts: [{ type: 'text', text: 'Hel', state: 'streaming' }],
    };
    const turn = openStream();
    const { chat, shown, onFinish } = store({ reconnect: async () => turn.stream }, [
      prompt,
      partial,
    ]);
    turn.write(
      { type: 'start', messageId: 'a1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hello' },
      { type: 'text-end', id: 't' },
    );
    turn.end();
    await chat.resumeStream();
    expect(chat.messages).toEqual([
      prompt,
      { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hello', state: 'done' }] },
    ]);
    expect(shown.map(({ status }) => status)).toEqual(['submitted', 'streaming', 'ready']);
    expect(onFinish).toHaveBeenCalledOnce();
  });

  it('keeps a prompt the server refused, with its words as the error', async () => {
    const { chat, onFinish } = store({
      send: async () => {
        throw new Error('A turn is running.');
      },
    });
    await chat.sendMessage({ text: 'hello' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe('A turn is running.');
    expect(chat.lastMessage).toMatchObject({ role: 'user', parts: [{ text: 'hello' }] });
    // The session list is refreshed after any turn asked for, as before.
    expect(onFinish).toHaveBeenCalledOnce();
  });

  it('leaves everything as it is when it resumes and no turn runs', async () => {
    const reconnect = vi.fn(async () => null);
    const { chat, onFinish } = store({ reconnect });
    await chat.resumeStream();
    expect(reconnect).toHaveBeenCalledOnce();
    expect(chat.status).toBe('ready');
    expect(chat.messages).toEqual([prompt]);
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('edits only a prompt it holds', async () => {
    const { chat } = store({});
    await expect(chat.sendMessage({ text: 'x', messageId: 'nope' })).rejects.toThrow(/nope/);
    expect(chat.messages).toEqual([prompt]);
  });
});
