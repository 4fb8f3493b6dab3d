import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_MODEL_ID } from './demo-model';
import { listModels, ModelUnavailableError, resolveModel } from './models';

// The OpenAI-compatible provider as it is, counting the models it makes.
const made = vi.hoisted(() => ({ models: 0 }));
vi.mock('@ai-sdk/openai-compatible', async (original) => {
  const actual = await original<typeof import('@ai-sdk/openai-compatible')>();
  return {
    ...actual,
    createOpenAICompatible: (settings: Parameters<typeof actual.createOpenAICompatible>[0]) => {
      const provider = actual.createOpenAICompatible(settings);
      return Object.assign((id: string) => {
        made.models++;
        return provider(id);
      }, provider);
    },
  };
});

// A hosted provider's model: a part per token, as their providers stream them.
vi.mock('@ai-sdk/openai', () => ({
  createOpenAI: () => (modelId: string) =>
    new MockLanguageModelV3({
      modelId,
      doStream: async () => ({
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: 'text-start', id: 't' },
            ...['The ', 'quick ', 'brown ', 'fox.'].map((delta) => ({
              type: 'text-delta' as const,
              id: 't',
              delta,
            })),
            { type: 'text-end', id: 't' },
          ],
        }),
      }),
    }),
}));

const ids = async (env: Record<string, string>) => (await listModels(env)).models.map((m) => m.id);

const servers: ReturnType<typeof createServer>[] = [];

/** A tiny OpenAI-compatible server on 127.0.0.1: `answer` handles each request. */
async function serve(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    answer(request, response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  servers.push(server);
  return { url: `http://127.0.0.1:${port}/v1`, requests };
}

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

/**
 * A server that streams one chat completion: these deltas, each in a choice with `choice`'s
 * other fields, at once, then its finish.
 */
function serveAnswer(deltas: object[], choice: object = {}) {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish, ...choice }] })}\n\n`;
  return serve((_, response) => {
    response.setHeader('content-type', 'text/event-stream');
    response.end(
      [...deltas.map((delta) => chunk(delta)), chunk({}, 'stop'), 'data: [DONE]\n\n'].join(''),
    );
  });
}

const listing = (models: unknown[]) => (_: IncomingMessage, response: ServerResponse) => {
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify({ object: 'list', data: models }));
};

describe('listModels', () => {
  it('offers only the demo model when nothing is configured', async () => {
    expect(await listModels({})).toEqual({
      models: [{ id: DEMO_MODEL_ID, label: 'Demo (offline)', demo: true }],
      defaultId: DEMO_MODEL_ID,
    });
  });

  it('lists the models of each provider with a key, in order, the demo last', async () => {
    expect(await ids({ OPENAI_API_KEY: 'k' })).toEqual([
      'openai:gpt-5',
      'openai:gpt-5-mini',
      'openai:gpt-4.1',
      DEMO_MODEL_ID,
    ]);
    expect(await ids({ ANTHROPIC_API_KEY: 'k' })).toEqual([
      'anthropic:claude-sonnet-4-5',
      'anthropic:claude-haiku-4-5',
      'anthropic:claude-opus-4-1',
      DEMO_MODEL_ID,
    ]);
    expect(await ids({ GOOGLE_GENERATIVE_AI_API_KEY: 'k' })).toEqual([
      'google:gemini-2.5-pro',
      'google:gemini-2.5-flash',
      DEMO_MODEL_ID,
    ]);
    expect(await ids({ AI_GATEWAY_API_KEY: 'k' })).toEqual([
      'gateway:openai/gpt-5',
      'gateway:anthropic/claude-sonnet-4.5',
      'gateway:google/gemini-2.5-flash',
      DEMO_MODEL_ID,
    ]);
  });

  it('lists every configured provider together, the first real model as default', async () => {
    const list = await listModels({
      ANTHROPIC_API_KEY: 'k',
      OPENAI_API_KEY: 'k',
      GOOGLE_GENERATIVE_AI_API_KEY: 'k',
      AI_GATEWAY_API_KEY: 'k',
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
      OPENAI_COMPATIBLE_MODELS: 'llama3.2',
    });
    const providers = list.models.map((model) => model.id.split(':')[0]);
    expect([...new Set(providers)]).toEqual([
      'openai',
      'anthropic',
      'google',
      'gateway',
      'local',
      'demo',
    ]);
    expect(list.models.at(-1)).toEqual({ id: DEMO_MODEL_ID, label: 'Demo (offline)', demo: true });
    expect(list.models.filter((model) => model.demo)).toHaveLength(1);
    expect(list.defaultId).toBe('openai:gpt-5');
  });

  it('labels a model with its provider', async () => {
    const { models } = await listModels({ ANTHROPIC_API_KEY: 'k' });
    expect(models[0]).toEqual({
      id: 'anthropic:claude-sonnet-4-5',
      label: 'claude-sonnet-4-5 · Anthropic',
      demo: false,
    });
  });

  it('ignores a key that is set but empty', async () => {
    expect(await ids({ OPENAI_API_KEY: '', OPENAI_COMPATIBLE_BASE_URL: '' })).toEqual([
      DEMO_MODEL_ID,
    ]);
  });

  it('reads process.env by default', async () => {
    for (const name of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'AI_GATEWAY_API_KEY',
      'OPENAI_COMPATIBLE_BASE_URL',
      'QUANTA_DEFAULT_MODEL',
    ]) {
      vi.stubEnv(name, '');
    }
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', 'k');
    expect((await listModels()).models.map((model) => model.id)).toEqual([
      'google:gemini-2.5-pro',
      'google:gemini-2.5-flash',
      DEMO_MODEL_ID,
    ]);
  });

  describe('QUANTA_DEFAULT_MODEL', () => {
    it('picks a listed model as the default, wherever it is in the list', async () => {
      const list = await listModels({
        OPENAI_API_KEY: 'k',
        ANTHROPIC_API_KEY: 'k',
        QUANTA_DEFAULT_MODEL: 'anthropic:claude-haiku-4-5',
      });
      expect(list.defaultId).toBe('anthropic:claude-haiku-4-5');
      expect(list.models[0]?.id).toBe('openai:gpt-5');
    });

    it('may pick the demo although real models exist', async () => {
      const list = await listModels({ OPENAI_API_KEY: 'k', QUANTA_DEFAULT_MODEL: DEMO_MODEL_ID });
      expect(list.defaultId).toBe(DEMO_MODEL_ID);
    });

    it('adds another model of a configured provider, first, as the default', async () => {
      const list = await listModels({ OPENAI_API_KEY: 'k', QUANTA_DEFAULT_MODEL: 'openai:o3' });
      expect(list.defaultId).toBe('openai:o3');
      expect(list.models[0]).toEqual({ id: 'openai:o3', label: 'o3 · OpenAI', demo: false });
      expect(list.models.map((model) => model.id)).toEqual([
        'openai:o3',
        'openai:gpt-5',
        'openai:gpt-5-mini',
        'openai:gpt-4.1',
        DEMO_MODEL_ID,
      ]);
    });

    it('ignores a model of a provider that is not configured', async () => {
      const list = await listModels({
        ANTHROPIC_API_KEY: 'k',
        QUANTA_DEFAULT_MODEL: 'openai:gpt-5',
      });
      expect(list.defaultId).toBe('anthropic:claude-sonnet-4-5');
      expect(list.models.map((model) => model.id)).not.toContain('openai:gpt-5');
      expect(await listModels({ QUANTA_DEFAULT_MODEL: 'openai:gpt-5' })).toMatchObject({
        models: [{ id: DEMO_MODEL_ID }],
        defaultId: DEMO_MODEL_ID,
      });
    });
  });

  describe('OpenAI-compatible server', () => {
    it('lists OPENAI_COMPATIBLE_MODELS without asking the server', async () => {
      const { url, requests } = await serve(listing([{ id: 'from-server' }]));
      const list = await listModels({
        OPENAI_COMPATIBLE_BASE_URL: url,
        OPENAI_COMPATIBLE_MODELS: ' llama3.2:1b , ,qwen3 ',
      });
      expect(list.models).toEqual([
        { id: 'local:llama3.2:1b', label: 'llama3.2:1b · OpenAI-compatible', demo: false },
        { id: 'local:qwen3', label: 'qwen3 · OpenAI-compatible', demo: false },
        { id: DEMO_MODEL_ID, label: 'Demo (offline)', demo: true },
      ]);
      expect(list.defaultId).toBe('local:llama3.2:1b');
      expect(requests).toHaveLength(0);
    });

    it('otherwise lists the models the server serves at /models', async () => {
      const { url, requests } = await serve(
        listing([{ id: 'llama3.2' }, { id: 42 }, {}, { id: 'mistral' }]),
      );
      const list = await listModels({
        OPENAI_COMPATIBLE_BASE_URL: `${url}//`,
        OPENAI_COMPATIBLE_MODELS: ' , ',
        OPENAI_COMPATIBLE_API_KEY: 'secret',
      });
      expect(list.models.map((model) => model.id)).toEqual([
        'local:llama3.2',
        'local:mistral',
        DEMO_MODEL_ID,
      ]);
      expect(list.defaultId).toBe('local:llama3.2');
      expect(requests.map((request) => request.url)).toEqual(['/v1/models']);
      expect(requests[0]?.headers.authorization).toBe('Bearer secret');
    });

    it('sends no authorization without OPENAI_COMPATIBLE_API_KEY', async () => {
      const { url, requests } = await serve(listing([{ id: 'llama3.2' }]));
      await listModels({ OPENAI_COMPATIBLE_BASE_URL: url, OPENAI_COMPATIBLE_API_KEY: '' });
      expect(requests).toHaveLength(1);
      expect(requests[0]?.headers).not.toHaveProperty('authorization');
    });

    it('treats a body without data as no models', async () => {
      const { url } = await serve((_, response) => response.end('{}'));
      expect(await ids({ OPENAI_COMPATIBLE_BASE_URL: url })).toEqual([DEMO_MODEL_ID]);
    });

    it('asks the server at most once a minute, concurrent callers included', async () => {
      const { url, requests } = await serve(listing([{ id: 'llama3.2' }]));
      const env = { OPENAI_COMPATIBLE_BASE_URL: url };
      const [first, second] = await Promise.all([ids(env), ids(env)]);
      expect(first).toEqual(['local:llama3.2', DEMO_MODEL_ID]);
      expect(second).toEqual(first);
      expect(await ids(env)).toEqual(first);
      expect(requests).toHaveLength(1);

      const now = Date.now();
      vi.spyOn(Date, 'now').mockReturnValue(now + 60_001);
      expect(await ids(env)).toEqual(first);
      expect(requests).toHaveLength(2);
    });

    it('lists no local models when the server fails, and asks again next time', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      let healthy = false;
      const { url, requests } = await serve((request, response) => {
        if (healthy) return listing([{ id: 'llama3.2' }])(request, response);
        response.statusCode = 500;
        response.end('boom');
      });
      const env = { OPENAI_COMPATIBLE_BASE_URL: url };
      expect(await listModels(env)).toEqual({
        models: [{ id: DEMO_MODEL_ID, label: 'Demo (offline)', demo: true }],
        defaultId: DEMO_MODEL_ID,
      });
      expect(warn).toHaveBeenCalledWith(
        `Could not list the models at ${url}/models: Error: HTTP 500`,
      );

      healthy = true;
      expect(await ids(env)).toEqual(['local:llama3.2', DEMO_MODEL_ID]);
      expect(requests).toHaveLength(2);
    });

    it('lists no local models when the server answers with something that is not JSON', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { url } = await serve((_, response) => response.end('<html>'));
      expect(await ids({ OPENAI_COMPATIBLE_BASE_URL: url })).toEqual([DEMO_MODEL_ID]);
      expect(warn).toHaveBeenCalledOnce();
    });

    it('gives up on a server that does not answer, after a time limit', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      // The code waits 5 s; the test shortens that limit to keep fast.
      const timeout = AbortSignal.timeout.bind(AbortSignal);
      const limit = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => timeout(50));
      const { url } = await serve(() => {});
      expect(await ids({ OPENAI_COMPATIBLE_BASE_URL: url })).toEqual([DEMO_MODEL_ID]);
      expect(limit).toHaveBeenCalledWith(5_000);
      expect(warn).toHaveBeenCalledOnce();
    });

    it('still offers the default model of a server that listed nothing', async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { url } = await serve((_, response) => {
        response.statusCode = 503;
        response.end();
      });
      const list = await listModels({
        OPENAI_COMPATIBLE_BASE_URL: url,
        QUANTA_DEFAULT_MODEL: 'local:llama3.2',
      });
      expect(list.defaultId).toBe('local:llama3.2');
      expect(list.models.map((model) => model.id)).toEqual(['local:llama3.2', DEMO_MODEL_ID]);
    });
  });
});

describe('resolveModel', () => {
  it('resolves null to the default model', async () => {
    const { info, model } = await resolveModel(null, { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(info.id).toBe('anthropic:claude-sonnet-4-5');
    expect(model).toMatchObject({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' });
  });

  it('resolves null to the demo model when nothing is configured', async () => {
    const { info, model } = await resolveModel(null, { env: {} });
    expect(info).toEqual({ id: DEMO_MODEL_ID, label: 'Demo (offline)', demo: true });
    expect(model).toMatchObject({ provider: 'demo', modelId: 'offline' });
  });

  it('gives the demo model the intents it is to recognise', async () => {
    const echo = {
      tool: 'echo',
      example: 'echo',
      match: (clause: string) => ({ clause }),
      lead: 'Echoing.',
      answer: ({ text }: { text: string }) => text,
    };
    const { model } = await resolveModel(null, { env: {}, demoIntents: [echo] });
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'say it' }] }],
      tools: [{ type: 'function', name: 'echo', inputSchema: { type: 'object' } }],
    });
    expect(await convertReadableStreamToArray(stream)).toContainEqual(
      expect.objectContaining({
        type: 'tool-call',
        toolName: 'echo',
        input: '{"clause":"say it"}',
      }),
    );
  });

  it('resolves a listed model of its provider', async () => {
    const env = { OPENAI_API_KEY: 'k', GOOGLE_GENERATIVE_AI_API_KEY: 'k' };
    const { info, model } = await resolveModel('google:gemini-2.5-flash', { env });
    expect(info).toEqual({
      id: 'google:gemini-2.5-flash',
      label: 'gemini-2.5-flash · Google',
      demo: false,
    });
    expect(model.modelId).toBe('gemini-2.5-flash');
    expect(model.provider).toMatch(/^google/);
  });

  it('makes a provider model once for the turns that ask with the same settings', async () => {
    const env = {
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/made-once',
      OPENAI_COMPATIBLE_MODELS: 'one,two',
    };
    const before = made.models;
    const first = await resolveModel('local:one', { env });
    const again = await resolveModel('local:one', { env });
    expect(made.models - before).toBe(1);
    // Each turn still gets a model of its own around it (its stall clock).
    expect(again.model).not.toBe(first.model);
    await resolveModel('local:two', { env });
    await resolveModel('local:one', { env: { ...env, OPENAI_COMPATIBLE_API_KEY: 'other' } });
    expect(made.models - before).toBe(3);
  });

  it('keeps a colon inside a local model name', async () => {
    const { model } = await resolveModel('local:llama3.2:1b', {
      env: {
        OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_COMPATIBLE_MODELS: 'llama3.2:1b',
      },
    });
    expect(model).toMatchObject({ provider: 'local.chat', modelId: 'llama3.2:1b' });
  });

  it('resolves the QUANTA_DEFAULT_MODEL it added to the list', async () => {
    const { info, model } = await resolveModel(null, {
      env: {
        OPENAI_API_KEY: 'k',
        QUANTA_DEFAULT_MODEL: 'openai:o3',
      },
    });
    expect(info.id).toBe('openai:o3');
    expect(model.modelId).toBe('o3');
  });

  it('refuses a model that is not configured', async () => {
    const unknown = resolveModel('openai:gpt-5', { env: { ANTHROPIC_API_KEY: 'k' } });
    await expect(unknown).rejects.toBeInstanceOf(ModelUnavailableError);
    await expect(unknown).rejects.toThrow(
      'The model openai:gpt-5 is not configured on this server; pick another one.',
    );
    await expect(resolveModel('nonsense', { env: {} })).rejects.toBeInstanceOf(
      ModelUnavailableError,
    );
  });

  it('wraps the model in the stall timeout of QUANTA_MODEL_TIMEOUT_MS', async () => {
    // A server that accepts the request and never answers it.
    const { url } = await serve(() => {});
    const { model } = await resolveModel('local:llama3.2', {
      env: {
        OPENAI_COMPATIBLE_BASE_URL: url,
        OPENAI_COMPATIBLE_MODELS: 'llama3.2',
        QUANTA_MODEL_TIMEOUT_MS: '50',
      },
    });
    await expect(
      model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }),
    ).rejects.toThrow('The model sent nothing for 50 ms, so the turn was ended.');
  });

  /** The text deltas of `model`'s answer to a greeting. */
  const deltasOf = async (model: LanguageModelV3) => {
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    return (await convertReadableStreamToArray(stream)).flatMap((part) =>
      part.type === 'text-delta' ? [part.delta] : [],
    );
  };

  it("passes a hosted provider's text on in frames, not a part per token", async () => {
    const { model } = await resolveModel('openai:gpt-5', { env: { OPENAI_API_KEY: 'key' } });
    // The first at once, the rest joined when the frame closes.
    expect(await deltasOf(model)).toEqual(['The ', 'quick brown fox.']);
  });

  it("frames an OpenAI-compatible server's text at its fetch alone", async () => {
    // Each with log probabilities, which the fetch does not join: with no framer after the
    // provider, a frame crosses one stream fewer, and these pass as the server sent them.
    const tokens = ['The ', 'quick ', 'brown ', 'fox.'];
    const { url } = await serveAnswer(
      tokens.map((content) => ({ content })),
      { logprobs: { content: [] } },
    );
    const { model } = await resolveModel('local:m', {
      env: { OPENAI_COMPATIBLE_BASE_URL: url, OPENAI_COMPATIBLE_MODELS: 'm' },
    });
    expect(await deltasOf(model)).toEqual(tokens);
  });

  it("joins an OpenAI-compatible server's text events before the provider parses them", async () => {
    const { url } = await serveAnswer(
      ['The ', 'quick ', 'brown ', 'fox.'].map((content) => ({ content })),
    );
    const { model } = await resolveModel('local:m', {
      env: { OPENAI_COMPATIBLE_BASE_URL: url, OPENAI_COMPATIBLE_MODELS: 'm' },
    });
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      includeRawChunks: true,
    });
    // The provider parsed three events, not five: the first text, the rest of it, the finish.
    const raw = (await convertReadableStreamToArray(stream)).flatMap((part) =>
      part.type === 'raw' ? [part.rawValue] : [],
    );
    expect(raw.map((event) => (event as { choices: unknown[] }).choices)).toEqual([
      [{ index: 0, delta: { content: 'The ' }, finish_reason: null }],
      [{ index: 0, delta: { content: 'quick brown fox.' }, finish_reason: null }],
      [{ index: 0, delta: {}, finish_reason: 'stop' }],
    ]);
  });

  it('gives the SDK a refused connection as a network failure it retries', async () => {
    const { url } = await serve(() => {});
    const server = servers.pop() as ReturnType<typeof createServer>;
    server.close();
    await once(server, 'close');
    const { model } = await resolveModel('local:m', {
      env: { OPENAI_COMPATIBLE_BASE_URL: url, OPENAI_COMPATIBLE_MODELS: 'm' },
    });
    const failure = await model
      .doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ isRetryable: true });
    expect((failure as Error).message).toMatch(/^Cannot connect to API: connect ECONNREFUSED/);
  });

  it('ends the stream with the abort when a Stop comes while the model streams', async () => {
    const { url } = await serve((_, response) => {
      response.setHeader('content-type', 'text/event-stream');
      response.write(
        `data: ${JSON.stringify({ id: 'c', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'The ' }, finish_reason: null }] })}\n\n`,
      );
    });
    const { model } = await resolveModel('local:m', {
      env: { OPENAI_COMPATIBLE_BASE_URL: url, OPENAI_COMPATIBLE_MODELS: 'm' },
    });
    const stop = new AbortController();
    const { stream } = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      abortSignal: stop.signal,
    });
    const reader = stream.getReader();
    for (let part = await reader.read(); part.value?.type !== 'text-delta'; ) {
      part = await reader.read();
    }
    stop.abort();
    const ending = async () => {
      for (;;) if ((await reader.read()).done) return;
    };
    await expect(ending()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses an invalid QUANTA_MODEL_TIMEOUT_MS', async () => {
    await expect(resolveModel(null, { env: { QUANTA_MODEL_TIMEOUT_MS: 'soon' } })).rejects.toThrow(
      'QUANTA_MODEL_TIMEOUT_MS must be a positive integer, not "soon".',
    );
  });
});
