import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { timedRun } from '@/tests/helpers/timed-stream';
import { framedChatFetch } from './chat-completion-frames';
import type { ModelAnswer } from './model-request';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const SSE = { 'content-type': 'text/event-stream' };

/** A model server's answer as `requestModel` gives it. */
const answer = (status: number, headers: Record<string, string>, body: Readable): ModelAnswer => ({
  status,
  statusText: '',
  headers: new Headers(headers),
  body: body as IncomingMessage,
});

/** One event of a streamed chat completion, as a server writes it. */
const event = (choice: object, extra: object = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, finish_reason: null, ...choice }], ...extra })}\n\n`;
const content = (text: string) => event({ delta: { content: text } });

/** The framed fetch's body for a server's body written at the given times: its chunks, and when. */
function relayedText(input: [at: number, text: string][], endAt: number) {
  return timedRun(
    (body: ReadableStream<string>) => {
      const fetch = framedChatFetch(
        async () =>
          answer(
            200,
            SSE,
            Readable.fromWeb(body.pipeThrough(new TextEncoderStream()) as WebStream),
          ),
        30,
      );
      const events = new TransformStream<string, string>();
      void fetch('http://127.0.0.1/v1/chat/completions').then((response) =>
        response.body?.pipeThrough(new TextDecoderStream()).pipeTo(events.writable),
      );
      return events.readable;
    },
    input,
    endAt,
  );
}

/** The events of `text`, as a client parses them. */
function parsed(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(text);
  return events;
}

/** What the framed fetch's body gives, each chunk read back as the data of its events. */
async function relayed(input: [at: number, text: string][], endAt: number) {
  const out = await relayedText(input, endAt);
  return out.map(([ms, text]) => [ms, parsed(text).map(({ data }) => data)] as const);
}

const data = (sse: string) => sse.slice('data: '.length, -2);

it('sends the first text event at once and joins the ones that follow into 30 ms frames', async () => {
  const out = await relayed(
    [
      [0, content('The ')],
      [5, content('quick ')],
      [10, content('brown ')],
      [40, content('fox.')],
      [45, event({ delta: {}, finish_reason: 'stop' })],
      [46, 'data: [DONE]\n\n'],
    ],
    100,
  );
  expect(out).toEqual([
    [0, [data(content('The '))]],
    [30, [data(content('quick brown '))]],
    // The next frame holds 'fox.' until the finish comes: what waits goes first.
    [45, [data(content('fox.'))]],
    [45, [data(event({ delta: {}, finish_reason: 'stop' }))]],
    [46, ['[DONE]']],
  ]);
});

it('passes every other event unchanged, after the text that waits', async () => {
  const role = event({ delta: { role: 'assistant', content: '' } });
  const toolCall = event({
    delta: { tool_calls: [{ index: 0, id: 't', function: { name: 'f', arguments: '{}' } }] },
  });
  const usage = event({ delta: {} }, { usage: { prompt_tokens: 3, completion_tokens: 2 } });
  const withLogprobs = event({ delta: { content: 'x' }, logprobs: { content: [] } });
  // Each followed by an event it would join were it taken for text.
  const twoTexts = event({ delta: { content: 'x', reasoning_content: 'y' } });
  const refusal = (text: string) => event({ delta: { refusal: text } });
  const error = 'event: error\ndata: {"message":"overloaded"}\n\n';
  const out = await relayed(
    [
      [0, role],
      [1, content('a')],
      [2, content('b')],
      [3, toolCall],
      [4, content('c')],
      [5, event({ delta: { reasoning_content: 'hmm' } })],
      [6, event({ delta: { content: 'd' } }, { id: 'c2' })],
      [7, withLogprobs],
      [8, twoTexts],
      [9, content('e')],
      [10, refusal('no')],
      [11, refusal(' way')],
      [12, usage],
      [13, 'data: not json\n\n'],
      [14, error],
    ],
    100,
  );
  expect(out.flatMap(([, events]) => events)).toEqual([
    data(role),
    data(content('a')),
    data(content('b')),
    data(toolCall),
    data(content('c')),
    data(event({ delta: { reasoning_content: 'hmm' } })),
    data(event({ delta: { content: 'd' } }, { id: 'c2' })),
    data(withLogprobs),
    data(twoTexts),
    data(content('e')),
    data(refusal('no')),
    data(refusal(' way')),
    data(usage),
    'not json',
    '{"message":"overloaded"}',
  ]);
  expect(out.at(-1)?.[0]).toBe(14);
});

it('passes an event whose choice is not an object as it came, after the text that waits', async () => {
  const odd = 'data: {"choices":[null]}\n\n';
  const out = await relayed(
    [
      [0, content('a')],
      [1, content('b')],
      [2, odd],
    ],
    100,
  );
  expect(out.flatMap(([, events]) => events)).toEqual([
    data(content('a')),
    data(content('b')),
    data(odd),
  ]);
});

it('joins reasoning as it joins text, and keeps a role repeated in every event', async () => {
  const thought = (text: string) =>
    event({ delta: { role: 'assistant', reasoning_content: text } });
  const out = await relayed(
    [
      [0, thought('Let ')],
      [1, thought('me ')],
      [2, thought('think.')],
    ],
    100,
  );
  expect(out).toEqual([
    [0, [data(thought('Let '))]],
    [30, [data(thought('me think.'))]],
  ]);
});

it('joins only the text of one completion and choice, with the same fields beside it', async () => {
  const piece = (text: string, choice: object = {}, extra: object = {}) =>
    event({ delta: { content: text }, ...choice }, extra);
  const out = await relayed(
    [
      [0, piece('first')],
      [1, piece('a')],
      [2, piece('b', {}, { id: 'c2' })],
      [3, piece('c', { index: 1 })],
      [4, piece('d', {}, { system_fingerprint: 'fp' })],
      [5, piece('e', {}, { timings: { ms: 1 } })],
      [6, piece('f')],
      [7, piece('g')],
    ],
    100,
  );
  expect(out.flatMap(([, events]) => events)).toEqual([
    data(piece('first')),
    data(piece('a')),
    data(piece('b', {}, { id: 'c2' })),
    data(piece('c', { index: 1 })),
    data(piece('d', {}, { system_fingerprint: 'fp' })),
    data(piece('e', {}, { timings: { ms: 1 } })),
    data(piece('fg')),
  ]);
});

it('keeps the id of the server-sent event that opens a frame', async () => {
  const out = await relayedText(
    [
      [0, `id: 7\n${content('a')}`],
      [1, `id: 8\n${content('b')}`],
      [2, `id: 9\n${content('c')}`],
    ],
    100,
  );
  const events = parsed(out.map(([, text]) => text).join(''));
  expect(events.map(({ id, data }) => [id, data])).toEqual([
    ['7', data(content('a'))],
    ['8', data(content('bc'))],
  ]);
});

it('leaves a response that is not an event stream as it is', async () => {
  const fetch = framedChatFetch(async () =>
    answer(
      400,
      { 'content-type': 'application/json' },
      Readable.from([Buffer.from('{"error":"no"}')]),
    ),
  );
  const response = await fetch('http://127.0.0.1/v1/chat/completions');
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(await response.text()).toBe('{"error":"no"}');
});

it('gives an answer of no body as fetch does, and lets its socket go', async () => {
  const body = Readable.from([]);
  const fetch = framedChatFetch(async () => answer(204, {}, body));
  const response = await fetch('http://127.0.0.1/v1/chat/completions');
  expect([response.status, response.body]).toEqual([204, null]);
  expect(body.destroyed).toBe(true);
});

it('fails as fetch does on a status a Response cannot hold, and lets its socket go', async () => {
  const body = Readable.from([Buffer.from('odd')]);
  const fetch = framedChatFetch(async () => answer(600, {}, body));
  const failure = await fetch('http://127.0.0.1/v1/chat/completions').catch((error) => error);
  expect(failure).toBeInstanceOf(TypeError);
  expect(failure).toMatchObject({ message: 'fetch failed' });
  expect(failure.cause.message).toBe('The model server answered with HTTP status 600');
  expect(body.destroyed).toBe(true);
});
