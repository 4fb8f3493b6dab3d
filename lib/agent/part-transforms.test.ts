import type { LanguageModelV3StreamPart as Part } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { expect, it } from 'vitest';
import { type PartTransform, partTransforms } from './part-transforms';

const text = (delta: string): Part => ({ type: 'text-delta', id: 't', delta });

/** The parts one model call streams through `middleware`; `cancelled` says whether it was cut. */
async function through(middleware: ReturnType<typeof partTransforms>, parts: Part[]) {
  let cancelled = false;
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<Part>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
          },
          pull(controller) {
            controller.close();
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    }),
    middleware,
  });
  const { stream } = await model.doStream({ prompt: [] });
  return { parts: await convertReadableStreamToArray(stream), cancelled: () => cancelled };
}

/** Adds `suffix` to every delta. */
const suffixing = (suffix: string) => (): PartTransform => ({
  transform: (part, controller) =>
    controller.enqueue(part.type === 'text-delta' ? { ...part, delta: part.delta + suffix } : part),
});

/** Holds every delta back and sends them joined at the end. */
const holding = (): PartTransform => {
  let held = '';
  return {
    transform(part, controller) {
      if (part.type === 'text-delta') held += part.delta;
      else controller.enqueue(part);
    },
    flush(controller) {
      if (held) controller.enqueue(text(held));
    },
  };
};

it('runs the transforms in the order the parts meet them, each on what the last passed on', async () => {
  const { parts } = await through(partTransforms(suffixing('1'), suffixing('2')), [
    text('a'),
    text('b'),
  ]);
  expect(parts).toEqual([text('a12'), text('b12')]);
});

it('sends what a transform holds at the end, through the transforms after it', async () => {
  const { parts } = await through(partTransforms(holding, suffixing('!')), [text('a'), text('b')]);
  expect(parts).toEqual([text('ab!')]);
});

it('gives every model call transforms of its own', async () => {
  const middleware = partTransforms(holding);
  expect((await through(middleware, [text('a')])).parts).toEqual([text('a')]);
  expect((await through(middleware, [text('b')])).parts).toEqual([text('b')]);
});

it('ends at a terminate: later transforms send what they hold, the model is cancelled', async () => {
  const stopAtX = (): PartTransform => ({
    transform(part, controller) {
      controller.enqueue(part);
      if (part.type === 'text-delta' && part.delta === 'x') controller.terminate();
    },
  });
  const { parts, cancelled } = await through(partTransforms(stopAtX, holding, suffixing('!')), [
    text('a'),
    text('x'),
    text('never'),
  ]);
  expect(parts).toEqual([text('ax!')]);
  expect(cancelled()).toBe(true);
});

it('flushes each transform once when a flush terminates', async () => {
  const stopAtEnd = (): PartTransform => ({
    transform: (part, controller) => controller.enqueue(part),
    flush: (controller) => controller.terminate(),
  });
  let flushes = 0;
  const counting = (): PartTransform => ({
    transform: (part, controller) => controller.enqueue(part),
    flush: () => {
      flushes++;
    },
  });
  const { parts } = await through(partTransforms(stopAtEnd, counting), [text('a')]);
  expect(parts).toEqual([text('a')]);
  expect(flushes).toBe(1);
});
