import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

/**
 * A model that streams `answer(prompt)` as its whole answer to every call, and keeps each call's
 * options (prompt, tools) for the test to read. An answer that is a promise holds the call until
 * it settles; one that rejects fails the call.
 */
export function recordingModel(
  answer: (
    prompt: LanguageModelV3Prompt,
    options: LanguageModelV3CallOptions,
  ) => string | Promise<string>,
) {
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options);
      const text = await answer(options.prompt, options);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: text });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({
              type: 'finish',
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
                outputTokens: { total: 1, text: 1, reasoning: 0 },
              },
            });
            controller.close();
          },
        }),
      };
    },
  });
  return { model, calls };
}

/** The model every turn runs on instead of its session's own, once a test sets `current`. */
export const turnModel: { current?: LanguageModelV3 } = {};

type Models = typeof import('@/lib/agent/models');

/**
 * The model registry, with `resolveModel` handing out `turnModel.current`. A test file installs
 * it from its `vi.mock('@/lib/agent/models', ...)` factory (imported there: mocks are hoisted).
 */
export async function withTurnModel(importOriginal: () => Promise<Models>): Promise<Models> {
  const actual = await importOriginal();
  return {
    ...actual,
    resolveModel: async (...args) => {
      const resolved = await actual.resolveModel(...args);
      return turnModel.current ? { ...resolved, model: turnModel.current } : resolved;
    },
  };
}
