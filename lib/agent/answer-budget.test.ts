import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, wrapLanguageModel } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AnswerTooLongError, answerBudget, answerCutMarker } from './answer-budget';
import { partTransforms } from './part-transforms';

const options: LanguageModelV3CallOptions = {
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
};
const finish: LanguageModelV3StreamPart = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: undefined },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  },
};
const text = (id: string, ...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: 'text-start', id },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];
const marker = (maxBytes: number): LanguageModelV3StreamPart[] => [
  { type: 'text-start', id: 'quanta-answer-cut' },
  { type: 'text-delta', id: 'quanta-answer-cut', delta: answerCutMarker(maxBytes) },
  { type: 'text-end', id: 'quanta-answer-cut' },
  { type: 'error', error: new AnswerTooLongError(maxBytes) },
];

/** Streams each list of parts in turn, one per call, through one budget. */
async function budgeted(maxBytes: number, ...calls: LanguageModelV3StreamPart[][]) {
  const budget = answerBudget(maxBytes);
  let call = 0;
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: calls[call++] ?? [] }) }),
    }),
    middleware: partTransforms(budget.transform),
  });
  const streamed: LanguageModelV3StreamPart[][] = [];
  for (const _ of calls) {
    streamed.push(await convertReadableStreamToArray((await model.doStream(options)).stream));
  }
  return { streamed, exhausted: budget.exhausted() };
}

describe('answerBudget', () => {
  it('passes an answer within the budget unchanged', async () => {
    const parts = [...text('t', 'Hel', 'lo'), finish];
    const { streamed, exhausted } = await budgeted(5, parts);
    expect(streamed).toEqual([parts]);
    expect(exhausted).toBe(false);
  });

  it('cuts the text at the budget between whole characters, closes it and says why', async () => {
    // "ab" (2 bytes) + a 4-byte emoji would be 6: the emoji does not fit in 5.
    const { streamed, exhausted } = await budgeted(5, [...text('t', 'ab', 'c🦊', 'never'), finish]);
    expect(streamed).toEqual([
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'ab' },
        { type: 'text-delta', id: 't', delta: 'c' },
        { type: 'text-end', id: 't' },
        ...marker(5),
      ],
    ]);
    expect(exhausted).toBe(true);
  });

  it('counts reasoning and tool input, and closes every part still open', async () => {
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'text-start', id: 't' },
      { type: 'tool-input-start', id: 'c1', toolName: 'save_note' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"text":' },
      { type: 'tool-input-delta', id: 'c1', delta: '"milk"}' },
    ];
    const { streamed } = await budgeted(15, parts);
    expect(streamed).toEqual([
      [
        ...parts.slice(0, 5),
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-end', id: 't' },
        ...marker(15),
      ],
    ]);
  });

  it('counts a streamed tool call once, and sends no call whose input does not fit', async () => {
    const input = '{"text":"milk"}';
    const streamedCall: LanguageModelV3StreamPart[] = [
      { type: 'tool-input-start', id: 'c1', toolName: 'save_note' },
      { type: 'tool-input-delta', id: 'c1', delta: input },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'save_note', input },
    ];
    const wholeCall: LanguageModelV3StreamPart = {
      type: 'tool-call',
      toolCallId: 'c2',
      toolName: 'save_note',
      input,
    };
    const { streamed } = await budgeted(input.length + 1, [...streamedCall, wholeCall, finish]);
    expect(streamed).toEqual([[...streamedCall, ...marker(input.length + 1)]]);
  });

  it('is one budget for all the model calls of a turn', async () => {
    const { streamed } = await budgeted(6, [...text('a', 'four'), finish], [...text('b', 'four')]);
    expect(streamed[0]).toEqual([...text('a', 'four'), finish]);
    expect(streamed[1]).toEqual([...text('b', 'fo'), ...marker(6)]);
  });

  it('cancels the model’s stream, which ends the request behind it', async () => {
    let cancelled = false;
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({
        // A model that never stops talking.
        doStream: async () => ({
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'text-start', id: 't' });
            },
            pull(controller) {
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'x'.repeat(100) });
            },
            cancel() {
              cancelled = true;
            },
          }),
        }),
      }),
      middleware: partTransforms(answerBudget(1000).transform),
    });
    const parts = await convertReadableStreamToArray((await model.doStream(options)).stream);
    expect(parts.at(-1)).toEqual({ type: 'error', error: new AnswerTooLongError(1000) });
    expect(cancelled).toBe(true);
  });

  it('names the budget in plain words', () => {
    expect(new AnswerTooLongError(1024 * 1024).message).toBe(
      'The answer grew longer than 1 MiB, so the turn was ended there.',
    );
    expect(answerCutMarker(64 * 1024)).toBe('[answer too long: stopped at 64 KiB]');
    expect(answerCutMarker(1500)).toBe('[answer too long: stopped at 1500 bytes]');
  });
});
