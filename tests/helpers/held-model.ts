import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { gate } from './gate';

export type HeldModel = {
  model: LanguageModelV3;
  /** Resolves once the model has sent its first words: the turn is running. */
  started: Promise<void>;
  /** Lets the answer finish. */
  release(): void;
};

const usage = {
  inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

/**
 * A model that answers `words` and then holds its turn open until `release()` (or until the
 * turn is stopped), so a test can act while a turn runs without racing its end.
 */
export function heldModel(words = 'I am still answering'): HeldModel {
  const { opened: released, open: release } = gate();
  const { opened: started, open: markStarted } = gate();
  const model = new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: words });
          markStarted();
          const stopped = new Promise<void>((resolve) =>
            abortSignal?.addEventListener('abort', () => resolve(), { once: true }),
          );
          await Promise.race([released, stopped]);
          if (abortSignal?.aborted) {
            controller.error(abortSignal.reason);
            return;
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
          });
          controller.close();
        },
      }),
    }),
  });
  return { model, started, release };
}

// The next turns run on these models, in order, instead of the session's own.
const queue: (LanguageModelV3 | Promise<LanguageModelV3>)[] = [];

/** The next turn answers a few words and then runs until it is released or stopped. */
export function holdNextTurn(): HeldModel {
  const held = heldModel();
  queue.push(held.model);
  return held;
}

/**
 * The next turn runs on `model` instead of the session's own; a promise holds the turn, claimed,
 * until it resolves.
 */
export function nextTurnOn(model: LanguageModelV3 | Promise<LanguageModelV3>): void {
  queue.push(model);
}

type Models = typeof import('@/lib/agent/models');

/**
 * The model registry, with `resolveModel` handing out held models first. A test file installs
 * it from its `vi.mock('@/lib/agent/models', ...)` factory (imported there: mocks are hoisted).
 */
export async function withHeldModels(importOriginal: () => Promise<Models>): Promise<Models> {
  const actual = await importOriginal();
  return {
    ...actual,
    resolveModel: async (...args) => {
      const resolved = await actual.resolveModel(...args);
      const next = queue.shift();
      return next ? { ...resolved, model: await next } : resolved;
    },
  };
}
