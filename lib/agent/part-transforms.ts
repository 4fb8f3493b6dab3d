import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { type PullController, type PullTransformer, pullThrough } from '../streams/pull-through';

type Part = LanguageModelV3StreamPart;

/** What a transform may do with a model call's stream: pass parts on, or end it there. */
export type PartController = PullController<Part>;

/** What a middleware does to one model call's stream, part by part, each handled at once. */
export type PartTransform = {
  transform(part: Part, controller: PartController): void;
  /** The model's stream ended: what is held back goes out. */
  flush?(controller: PartController): void;
};

/**
 * A middleware that runs a fresh transform from each of `makers` on every model call, in the
 * order the parts meet them (the provider's first), all in one stream: each stream between the
 * provider and the reader costs promises for every part, and every promise pays for the hooks
 * of Next's AsyncLocalStorage. A transform that terminates the stream first lets the ones after
 * it send what they hold, as their own streams would at its end.
 */
export function partTransforms(...makers: (() => PartTransform)[]): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapStream({ doStream }) {
      const result = await doStream();
      const transforms = makers.map((make) => make());
      return { ...result, stream: pullThrough(result.stream, chained(transforms)) };
    },
  };
}

function chained(transforms: PartTransform[]): PullTransformer<Part, Part> {
  let out: PullController<Part>;
  let ended = false;
  const controllers: PartController[] = transforms.map((_, index) => ({
    enqueue: (part) => into(index + 1, part),
    terminate() {
      if (ended) return;
      flushFrom(index + 1);
      ended = true;
      out.terminate();
    },
  }));
  /** `part` given to the transform at `index`, or passed on after the last. */
  const into = (index: number, part: Part) => {
    if (ended) return;
    const transform = transforms[index];
    if (transform) transform.transform(part, controllers[index] as PartController);
    else out.enqueue(part);
  };
  // A flush that terminates has flushed the transforms after it: the loop stops there.
  const flushFrom = (index: number) => {
    for (let i = index; i < transforms.length && !ended; i++) {
      transforms[i]?.flush?.(controllers[i] as PartController);
    }
  };
  return {
    start(controller) {
      out = controller;
    },
    transform: (part) => into(0, part),
    flush: () => flushFrom(0),
  };
}
