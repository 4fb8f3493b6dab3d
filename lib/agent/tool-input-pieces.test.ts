import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { wrapLanguageModel } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { partTransforms } from './part-transforms';
import { doublingToolInputPieces } from './tool-input-pieces';

const delta = (id: string, text: string): LanguageModelV3StreamPart => ({
  type: 'tool-input-delta',
  id,
  delta: text,
});

// Not simulateReadableStream: it waits a timer turn between parts, too slow for thousands.
function fromArray(chunks: LanguageModelV3StreamPart[]) {
  let next = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    pull(controller) {
      const part = chunks[next++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
}

async function through(chunks: LanguageModelV3StreamPart[]) {
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({
      doStream: async () => ({ stream: fromArray(chunks) }),
    }),
    middleware: partTransforms(doublingToolInputPieces),
  });
  const { stream } = await model.doStream({ prompt: [] });
  return convertReadableStreamToArray(stream);
}

describe('doublingToolInputPieces', () => {
  it('sends each piece once it doubles what was sent, the rest before the end', async () => {
    const start: LanguageModelV3StreamPart = { type: 'tool-input-start', id: 'c', toolName: 't' };
    const end: LanguageModelV3StreamPart = { type: 'tool-input-end', id: 'c' };
    const letters = [...'abcdefghij'].map((letter) => delta('c', letter));
    expect(await through([start, ...letters, end])).toEqual([
      start,
      delta('c', 'a'),
      delta('c', 'b'),
      delta('c', 'cd'),
      delta('c', 'efgh'),
      delta('c', 'ij'),
      end,
    ]);
  });

  it('keeps calls apart, and sends what is held before the complete call or the end', async () => {
    const call: LanguageModelV3StreamPart = {
      type: 'tool-call',
      toolCallId: 'a',
      toolName: 't',
      input: '{}',
    };
    const other: LanguageModelV3StreamPart = { type: 'text-delta', id: 'x', delta: 'text' };
    expect(
      await through([
        delta('a', '{'),
        delta('b', '['),
        delta('a', 'x'),
        delta('a', 'y'),
        other,
        call,
        delta('b', '1'),
        delta('b', '2'),
      ]),
    ).toEqual([
      delta('a', '{'),
      delta('b', '['),
      delta('a', 'x'),
      other,
      delta('a', 'y'),
      call,
      delta('b', '1'),
      delta('b', '2'),
    ]);
  });

  it('sends a long input of token-sized pieces in a handful of them', async () => {
    const tokens = Array.from({ length: 16 * 1024 }, () => delta('c', 'abcd'));
    const pieces = await through(tokens);
    expect(pieces.length).toBeLessThanOrEqual(16);
    expect(
      pieces.map((part) => (part.type === 'tool-input-delta' ? part.delta : '')).join(''),
    ).toBe('abcd'.repeat(16 * 1024));
  });
});
