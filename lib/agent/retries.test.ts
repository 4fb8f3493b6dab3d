import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { readUIMessageStream } from 'ai';
import { afterEach, expect, it } from 'vitest';
import { memoryServices } from '@/tests/helpers/tool-services';
import type { QuantaMessage } from '../protocol';
import { createToolSet } from '../tools';
import { runTurn } from './run-turn';

let server: Server | undefined;
afterEach(() => server?.close());

/** A chat-completions server that rate-limits the first `limited` requests. */
async function rateLimited(limited: number, retryAfterMs: number) {
  const arrivals: number[] = [];
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      arrivals.push(performance.now());
      if (arrivals.length <= limited) {
        response.writeHead(429, {
          'content-type': 'application/json',
          'retry-after-ms': String(retryAfterMs),
        });
        response.end(JSON.stringify({ error: { message: 'slow down' } }));
        return;
      }
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`${chunk({ content: 'made it' })}${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const provider = createOpenAICompatible({
    name: 'local',
    baseURL: `http://127.0.0.1:${port}/v1`,
  });
  return { model: provider.chatModel('m'), arrivals };
}

async function turn(model: LanguageModelV3) {
  let ended: QuantaMessage | undefined;
  const stream = await runTurn({
    model,
    modelId: 'local:m',
    history: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
    messageId: 'a1',
    toolSet: createToolSet([]),
    services: memoryServices(),
    sessionId: 's1',
    agentId: 's1',
    maxSteps: 2,
    maxAnswerBytes: 1024 * 1024,
    maxToolInputBytes: 64 * 1024,
    maxWidgetDataBytes: 256 * 1024,
    signal: new AbortController().signal,
    onStep: async () => {},
    onEnd: async (message) => {
      ended = message;
    },
  });
  for await (const _ of readUIMessageStream<QuantaMessage>({ stream })) {
    // drain
  }
  return ended;
}

it('waits as long as a 429 asks (retry-after-ms) before trying again, then answers', async () => {
  const { model, arrivals } = await rateLimited(2, 300);
  const ended = await turn(model);
  expect(ended?.metadata?.status).toBe('complete');
  expect(JSON.stringify(ended?.parts)).toContain('made it');
  expect(arrivals).toHaveLength(3);
  const gaps = arrivals.slice(1).map((at, index) => at - (arrivals[index] as number));
  // The server asked for 300 ms and got at least that; without the header the SDK's own
  // backoff would have waited 2 s and more.
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(290);
  for (const gap of gaps) expect(gap).toBeLessThan(2_000);
});

it('gives up after a bounded number of tries and says why', async () => {
  const { model, arrivals } = await rateLimited(Number.POSITIVE_INFINITY, 10);
  const ended = await turn(model);
  expect(arrivals).toHaveLength(3);
  expect(ended?.metadata).toMatchObject({ status: 'failed' });
  expect(ended?.metadata?.error).toMatch(
    /rate-limiting requests \(HTTP 429\)\. slow down \(tried 3 times\)/,
  );
});
