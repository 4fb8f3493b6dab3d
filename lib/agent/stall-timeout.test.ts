import { once } from 'node:events';
import { createServer } from 'node:http';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { simulateReadableStream, streamText, wrapLanguageModel } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error';
import { ModelTimeoutError, stallTimeout } from './stall-timeout';

const TIMEOUT_MS = 40;

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
};
const start: LanguageModelV3StreamPart = { type: 'stream-start', warnings: [] };
const answer: LanguageModelV3StreamPart[] = [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Hel' },
  { type: 'text-delta', id: 't', delta: 'lo' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
];

const options = (abortSignal?: AbortSignal): LanguageModelV3CallOptions => ({
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  abortSignal,
});

function guarded(model: LanguageModelV3, ms = TIMEOUT_MS) {
  return wrapLanguageModel({ model, middleware: stallTimeout(ms) });
}

/** A stream that sends `parts` at once and then never another part nor its end. */
function thenHangs(parts: LanguageModelV3StreamPart[]) {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
    },
  });
}

describe('stallTimeout', () => {
  it('fails with ModelTimeoutError when the call itself never answers, and aborts it', async () => {
    const mock = new MockLanguageModelV3({ doStream: () => new Promise(() => {}) });
    const began = Date.now();
    const error = await Promise.resolve(guarded(mock).doStream(options())).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(Date.now() - began).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(describeError(error)).toBe('The model sent nothing for 40 ms, so the turn was ended.');
    // The request behind the call is cancelled through the signal the model was given.
    const signal = mock.doStreamCalls[0]?.abortSignal;
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
  });

  it('fails the stream when it opens but sends nothing, and aborts the call', async () => {
    const mock = new MockLanguageModelV3({ doStream: async () => ({ stream: thenHangs([]) }) });
    const { stream } = await guarded(mock).doStream(options());
    const error = await convertReadableStreamToArray(stream).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(mock.doStreamCalls[0]?.abortSignal?.reason).toBe(error);
  });

  it('does not count stream-start as an answer', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: thenHangs([start]) }),
    });
    const { stream } = await guarded(mock).doStream(options());
    const reader = stream.getReader();
    expect(await reader.read()).toEqual({ done: false, value: start });
    await expect(reader.read()).rejects.toBeInstanceOf(ModelTimeoutError);
  });

  it('fails a stream that goes silent after its first parts, keeping those parts', async () => {
    const first = answer.slice(0, 2);
    const mock = new MockLanguageModelV3({ doStream: async () => ({ stream: thenHangs(first) }) });
    const { stream } = await guarded(mock).doStream(options());
    const reader = stream.getReader();
    const began = Date.now();
    expect(await reader.read()).toEqual({ done: false, value: first[0] });
    expect(await reader.read()).toEqual({ done: false, value: first[1] });
    const error = await reader.read().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(Date.now() - began).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(mock.doStreamCalls[0]?.abortSignal?.aborted).toBe(true);
  });

  it('passes a prompt answer through unchanged, stream-start included', async () => {
    const chunks = [start, ...answer];
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks }) }),
    });
    const { stream } = await guarded(mock).doStream(options());
    expect(await convertReadableStreamToArray(stream)).toEqual(chunks);
  });

  it('lets every part take almost the whole timeout: the clock restarts at each part', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        // Together far longer than the timeout; each one within it.
        stream: simulateReadableStream({
          chunks: answer,
          initialDelayInMs: TIMEOUT_MS / 2,
          chunkDelayInMs: TIMEOUT_MS / 2,
        }),
      }),
    });
    const { stream } = await guarded(mock).doStream(options());
    expect(await convertReadableStreamToArray(stream)).toEqual(answer);
    expect(mock.doStreamCalls[0]?.abortSignal?.aborted).toBe(false);
  });

  it('does not count the time the reader takes between parts', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: answer }) }),
    });
    const { stream } = await guarded(mock).doStream(options());
    const reader = stream.getReader();
    const parts: LanguageModelV3StreamPart[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      parts.push(next.value);
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 10));
    }
    expect(parts).toEqual(answer);
  });

  it('accepts a first part that arrives late but within the timeout', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({ chunks: answer, initialDelayInMs: TIMEOUT_MS / 4 }),
      }),
    });
    const { stream } = await guarded(mock).doStream(options());
    expect(await convertReadableStreamToArray(stream)).toEqual(answer);
  });

  it('passes an empty stream through', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: [] }) }),
    });
    const { stream } = await guarded(mock).doStream(options());
    expect(await convertReadableStreamToArray(stream)).toEqual([]);
  });

  it('keeps the rest of the result: request and response', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({ chunks: answer }),
        request: { body: 'REQUEST' },
        response: { headers: { 'x-id': 'RESPONSE' } },
      }),
    });
    const result = await guarded(mock).doStream(options());
    expect(result.request).toEqual({ body: 'REQUEST' });
    expect(result.response).toEqual({ headers: { 'x-id': 'RESPONSE' } });
  });

  it('still passes the caller’s abort on to the model', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: answer }) }),
    });
    const caller = new AbortController();
    await guarded(mock).doStream(options(caller.signal));
    const signal = mock.doStreamCalls[0]?.abortSignal;
    expect(signal?.aborted).toBe(false);
    caller.abort(new Error('stopped'));
    expect(signal?.aborted).toBe(true);
  });

  it('passes a stream error through as it is', async () => {
    const broken = new TypeError('terminated');
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          pull(controller) {
            controller.error(broken);
          },
        }),
      }),
    });
    const { stream } = await guarded(mock).doStream(options());
    await expect(convertReadableStreamToArray(stream)).rejects.toBe(broken);
  });

  it('cancels the model’s stream when the caller cancels the wrapped one', async () => {
    let cancelled: unknown;
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue(start);
            controller.enqueue(answer[0] as LanguageModelV3StreamPart);
          },
          cancel(reason) {
            cancelled = reason;
          },
        }),
      }),
    });
    const { stream } = await guarded(mock).doStream(options());
    await stream.cancel('enough');
    expect(cancelled).toBe('enough');
  });

  it('with a real provider: cuts off a server that sends a first chunk and then nothing', async () => {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      if (request.method === 'GET') return void response.end();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const delta = { choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }] };
      response.write(`data: ${JSON.stringify(delta)}\n\n`);
    });
    const nextClose = () =>
      new Promise<void>((resolve) => {
        server.once('connection', (socket) => socket.on('close', () => resolve()));
      });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      // Node loads its fetch on first use: do that before the clock runs.
      const warmedUp = nextClose();
      const warmUp = await fetch(`http://127.0.0.1:${port}/warm-up`, {
        headers: { connection: 'close' },
      });
      await warmUp.text();
      await warmedUp;

      const cut = nextClose();
      const local = createOpenAICompatible({ name: 'local', baseURL: `http://127.0.0.1:${port}` });
      const { stream } = await guarded(local('m'), 100).doStream(options());
      const parts: LanguageModelV3StreamPart[] = [];
      const reader = stream.getReader();
      const error = await (async () => {
        for (;;) parts.push((await reader.read()).value as LanguageModelV3StreamPart);
      })().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelTimeoutError);
      expect(parts).toContainEqual(expect.objectContaining({ type: 'text-delta', delta: 'Hel' }));
      expect(requests).toEqual(['GET /warm-up', 'POST /chat/completions']);
      // The request behind the call is cancelled: the server sees its connection close.
      await cut;
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('through streamText: a model silent mid-answer ends the call with ModelTimeoutError', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: thenHangs([start, ...answer.slice(0, 2)]) }),
    });
    const errors: unknown[] = [];
    const result = streamText({ model: guarded(mock), prompt: 'hi' });
    // The stream breaks (no error part): the whole call ends there, whatever the step held.
    await result.consumeStream({ onError: (error) => void errors.push(error) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ModelTimeoutError);
    // Not retried: one call only.
    expect(mock.doStreamCalls).toHaveLength(1);
  });

  it('says whole seconds in seconds and anything else in milliseconds', () => {
    expect(new ModelTimeoutError(60_000).message).toBe(
      'The model sent nothing for 60 s, so the turn was ended.',
    );
    expect(new ModelTimeoutError(1500).message).toBe(
      'The model sent nothing for 1500 ms, so the turn was ended.',
    );
    expect(new ModelTimeoutError(1500)).toMatchObject({ name: 'ModelTimeoutError', ms: 1500 });
  });
});
