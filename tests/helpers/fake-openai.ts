import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message of a chat-completions request, as an OpenAI-compatible client sends it. */
export type ChatMessage = {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
};

export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  tools?: {
    type: string;
    function: { name: string; description?: string; parameters?: unknown };
  }[];
  stream?: boolean;
  [key: string]: unknown;
};

/** A request the fake received: its body exactly as sent (`raw`) and parsed. */
export type RecordedRequest = { index: number; path: string; raw: string; body: ChatRequest };

export type ToolCall = { name: string; args: unknown; id?: string };

type StatusReply = {
  type: 'status';
  status: number;
  message: string;
  headers: Record<string, string>;
};

/** What the fake answers one request with. */
/**
 * How a streamed answer ends: properly, by a dropped connection, by going silent, or held open
 * until the test calls `release()` (then `rest` streams and it finishes).
 */
type Ending = 'finish' | 'drop' | 'stall' | { held: string[] };

export type Reply =
  | {
      type: 'stream';
      text: string[];
      toolCalls: ToolCall[];
      ending: Ending;
      /** Milliseconds between two chunks; a few unless `paced` says otherwise. */
      pace?: number;
    }
  | StatusReply
  | { type: 'hang' };

export const reply = {
  /** A streamed answer: each string is its own `delta.content` chunk. */
  text: (...deltas: string[]): Reply => ({
    type: 'stream',
    text: deltas,
    toolCalls: [],
    ending: 'finish',
  }),
  /** Streamed text (optional) then tool calls; `args` is sent as JSON unless it is a string. */
  toolCalls: (calls: ToolCall[], ...text: string[]): Reply => ({
    type: 'stream',
    text,
    toolCalls: calls,
    ending: 'finish',
  }),
  /** An HTTP error with an OpenAI-style JSON body; retry headers say "retry at once". */
  status: (status: number, message: string, headers: Record<string, string> = {}): StatusReply => ({
    type: 'status',
    status,
    message,
    headers: { 'retry-after': '0', 'retry-after-ms': '10', ...headers },
  }),
  /** Streams these text chunks, then destroys the socket in the middle of the answer. */
  drop: (...deltas: string[]): Reply => ({
    type: 'stream',
    text: deltas,
    toolCalls: [],
    ending: 'drop',
  }),
  /**
   * Streams `first`, then holds the answer open until the test calls `release()`, then streams
   * `rest` and finishes: a turn that is running for as long as the test needs.
   */
  held: (first: string[], rest: string[]): Reply => ({
    type: 'stream',
    text: first,
    toolCalls: [],
    ending: { held: rest },
  }),
  /** Streams these text chunks, then sends nothing more, keeping the connection open. */
  stall: (...deltas: string[]): Reply => ({
    type: 'stream',
    text: deltas,
    toolCalls: [],
    ending: 'stall',
  }),
  /** Sends the stream's headers, then nothing: a server that accepted and hangs. */
  hang: (): Reply => ({ type: 'hang' }),
  /**
   * A streamed answer of these text chunks, one every `ms` milliseconds: a turn that runs for
   * seconds on its own, as a model writing word by word does.
   */
  paced: (ms: number, ...deltas: string[]): Reply => ({
    type: 'stream',
    text: deltas,
    toolCalls: [],
    ending: 'finish',
    pace: ms,
  }),
};

export type Responder = (request: RecordedRequest) => Reply;

export type FakeOpenAI = {
  /** e.g. `http://127.0.0.1:40123/v1`, for OPENAI_COMPATIBLE_BASE_URL. */
  baseURL: string;
  /** Every chat-completions request received so far, across all scenarios. */
  requests: RecordedRequest[];
  /** Answers the next requests with these replies, in order (replacing any earlier script). */
  script(...replies: Reply[]): void;
  /** Answers every request with `responder` (replacing any earlier script). */
  respond(responder: Responder): void;
  /** The requests received after the first `mark` ones. */
  since(mark: number): RecordedRequest[];
  /** Lets every held answer go on to its end. */
  release(): void;
  close(): Promise<void>;
};

const CHUNK_DELAY_MS = 5;

/** The environment that makes Quanta offer `model` from `fake`, as its default model. */
export function modelEnv(fake: FakeOpenAI, model: string): Record<string, string> {
  return {
    OPENAI_COMPATIBLE_BASE_URL: fake.baseURL,
    OPENAI_COMPATIBLE_MODELS: model,
    QUANTA_DEFAULT_MODEL: `local:${model}`,
  };
}

/**
 * A small OpenAI-compatible server on 127.0.0.1 (a free port): `POST /v1/chat/completions`
 * answers with chat-completions SSE as the test scripts it, and records every request body.
 * A request nothing was scripted for gets a 500 saying so.
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  let queue: Reply[] = [];
  let responder: Responder | undefined;
  let calls = 0;
  const held = new Set<() => void>();

  const server = createServer(async (req, res) => {
    try {
      const raw = await readBody(req);
      const path = req.url ?? '';
      if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
        return sendError(res, reply.status(404, `no route ${req.method} ${path}`));
      }
      const recorded: RecordedRequest = {
        index: requests.length,
        path,
        raw,
        body: JSON.parse(raw) as ChatRequest,
      };
      requests.push(recorded);
      const next =
        queue.shift() ??
        responder?.(recorded) ??
        reply.status(500, `the fake has no answer scripted for request ${recorded.index}`, {
          'retry-after': '0',
        });
      calls += 1;
      await answer(res, next, `chatcmpl-${calls}`, recorded.body.model, held);
    } catch (error) {
      if (!res.headersSent) sendError(res, reply.status(500, String(error)));
      else res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script(...replies) {
      queue = [...replies];
      responder = undefined;
    },
    respond(next) {
      queue = [];
      responder = next;
    },
    since: (mark) => requests.slice(mark),
    release() {
      for (const go of [...held]) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  res: ServerResponse,
  next: Reply,
  id: string,
  model: string,
  held: Set<() => void>,
) {
  if (next.type === 'status') return sendError(res, next);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  if (next.type === 'hang') return;

  const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const pace = next.pace ?? CHUNK_DELAY_MS;
  const send = async (choice: object, extra: object = {}) => {
    // A client that went away (a stopped turn, a killed server) gets nothing more.
    if (res.destroyed) return;
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }], ...extra })}\n\n`,
    );
    await sleep(pace);
  };
  await send({ delta: { role: 'assistant', content: '' }, finish_reason: null });
  for (const content of next.text) await send({ delta: { content }, finish_reason: null });
  if (next.ending === 'drop') {
    // Let the chunks reach the client, then cut the connection without ending the body.
    await sleep(100);
    res.socket?.destroy();
    return;
  }
  if (next.ending === 'stall') return;
  if (typeof next.ending === 'object') {
    // Until released, or until the client gives up (a stopped turn cancels its request).
    await new Promise<void>((resolve) => {
      const go = () => {
        held.delete(go);
        resolve();
      };
      held.add(go);
      res.once('close', go);
    });
    if (res.destroyed) return;
    for (const content of next.ending.held) await send({ delta: { content }, finish_reason: null });
  }
  for (const [index, call] of next.toolCalls.entries()) {
    const args = typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
    const half = Math.ceil(args.length / 2);
    const toolCallId = call.id ?? `call_${id}_${index}`;
    await send({
      delta: {
        tool_calls: [
          { index, id: toolCallId, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      },
      finish_reason: null,
    });
    // Arguments arrive in pieces, as real servers send them.
    for (const piece of [args.slice(0, half), args.slice(half)].filter(Boolean)) {
      await send({ delta: { tool_calls: [{ index, function: { arguments: piece } }] } });
    }
  }
  const finish = next.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  await send(
    { delta: {}, finish_reason: finish },
    { usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } },
  );
  res.end('data: [DONE]\n\n');
}

function sendError(res: ServerResponse, error: StatusReply) {
  res.writeHead(error.status, { 'content-type': 'application/json', ...error.headers });
  res.end(
    JSON.stringify({
      error: { message: error.message, type: 'fake_error', code: String(error.status) },
    }),
  );
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
