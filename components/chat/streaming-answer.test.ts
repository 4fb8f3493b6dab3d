import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import {
  jsonSchema,
  readUIMessageStream,
  simulateReadableStream,
  stepCountIs,
  streamText,
  tool,
} from 'ai';
import {
  convertArrayToReadableStream,
  convertReadableStreamToArray,
  MockLanguageModelV3,
} from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { finish } from '@/tests/helpers/model-parts';
import { type AnswerChunk, StreamingAnswer } from './streaming-answer';

/** The UI message chunks the SDK makes of a model answering `steps` in turn, with two tools. */
async function turnChunks(steps: LanguageModelV3StreamPart[][]): Promise<AnswerChunk[]> {
  let call = 0;
  const model = new MockLanguageModelV3({
    doStream: async () => ({ stream: simulateReadableStream({ chunks: steps[call++] ?? [] }) }),
  });
  const input = jsonSchema<{ text: string }>({
    type: 'object',
    properties: { text: { type: 'string' } },
  });
  const result = streamText({
    model,
    prompt: 'hi',
    stopWhen: stepCountIs(steps.length),
    tools: {
      save: tool({ inputSchema: input, execute: async ({ text }) => ({ saved: text }) }),
      explode: tool({
        inputSchema: input,
        execute: async (): Promise<string> => {
          throw new Error('boom');
        },
      }),
    },
  });
  return convertReadableStreamToArray(
    result.toUIMessageStream<QuantaMessage>({
      generateMessageId: () => 'a1',
      messageMetadata: ({ part }) =>
        part.type === 'start'
          ? { model: 'test:model', status: 'streaming' }
          : part.type === 'finish'
            ? { status: 'complete', usage: { inputTokens: 10, outputTokens: 5 } }
            : undefined,
    }),
  ) as Promise<AnswerChunk[]>;
}

/** The message after each chunk that changes it, as the AI SDK builds it. */
async function sdkSnapshots(chunks: AnswerChunk[]): Promise<QuantaMessage[]> {
  const snapshots: QuantaMessage[] = [];
  const stream = convertArrayToReadableStream(chunks);
  for await (const message of readUIMessageStream<QuantaMessage>({ stream })) {
    snapshots.push(message);
  }
  return snapshots;
}

/** The same, as StreamingAnswer builds it. */
function ourSnapshots(chunks: AnswerChunk[], answer = new StreamingAnswer('')): QuantaMessage[] {
  const snapshots: QuantaMessage[] = [];
  for (const chunk of chunks) {
    if (answer.apply(chunk) !== 'none') snapshots.push(structuredClone(answer.message));
  }
  return snapshots;
}

const json = (value: unknown) => JSON.stringify(value);

describe('StreamingAnswer builds the message the AI SDK builds', () => {
  const cases: Record<string, LanguageModelV3StreamPart[][]> = {
    'text and reasoning': [
      [
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'Let me ' },
        { type: 'reasoning-delta', id: 'r', delta: 'think.' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Hel' },
        { type: 'text-delta', id: 't', delta: 'lo' },
        { type: 'text-end', id: 't' },
        finish('stop'),
      ],
    ],
    'tools over steps: streamed arguments, a result, a failure, an unknown tool': [
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Saving.' },
        { type: 'text-end', id: 't' },
        { type: 'tool-input-start', id: 'c1', toolName: 'save' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"text":"mi' },
        { type: 'tool-input-delta', id: 'c1', delta: 'lk"}' },
        { type: 'tool-input-end', id: 'c1' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input: json({ text: 'milk' }) },
        { type: 'tool-call', toolCallId: 'c2', toolName: 'explode', input: json({ text: 'x' }) },
        { type: 'tool-call', toolCallId: 'c3', toolName: 'missing', input: json({}) },
        finish('tool-calls'),
      ],
      [
        { type: 'text-start', id: 't2' },
        { type: 'text-delta', id: 't2', delta: 'Done.' },
        { type: 'text-end', id: 't2' },
        finish('stop'),
      ],
    ],
    'arguments that are not JSON': [
      [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'save', input: '{"text":' },
        finish('tool-calls'),
      ],
      [finish('stop')],
    ],
  };

  for (const [name, steps] of Object.entries(cases)) {
    it(name, async () => {
      const chunks = await turnChunks(steps);
      const expected = await sdkSnapshots(chunks);
      expect(expected.length).toBeGreaterThan(3);
      expect(ourSnapshots(chunks)).toEqual(expected);
    });
  }

  it('a data part replaced by id, metadata merged, steps, an abort', async () => {
    const chunks: AnswerChunk[] = [
      {
        type: 'start',
        messageId: 'a1',
        messageMetadata: { model: 'm', usage: { inputTokens: 1, outputTokens: 0 } },
      },
      { type: 'data-summary', id: 'summary', data: { status: 'summarising' } },
      { type: 'data-summary', id: 'summary', data: { status: 'done' } },
      { type: 'start-step' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Hi' },
      { type: 'message-metadata', messageMetadata: { usage: { inputTokens: 1, outputTokens: 1 } } },
      { type: 'abort' },
      { type: 'finish', messageMetadata: { status: 'stopped', error: undefined } },
    ];
    const ours = ourSnapshots(chunks);
    expect(ours).toEqual(await sdkSnapshots(chunks));
    expect(ours.at(-1)).toMatchObject({
      id: 'a1',
      metadata: { model: 'm', status: 'stopped', usage: { inputTokens: 1, outputTokens: 1 } },
      parts: [
        { type: 'data-summary', data: { status: 'done' } },
        { type: 'step-start' },
        { text: 'Hi' },
      ],
    });
  });
});

describe('StreamingAnswer', () => {
  it('throws the text of an error chunk', () => {
    const answer = new StreamingAnswer('a1');
    expect(() => answer.apply({ type: 'error', errorText: 'The model is gone.' })).toThrow(
      'The model is gone.',
    );
  });

  it('refuses a delta of a part that never started', () => {
    expect(() =>
      new StreamingAnswer('a1').apply({ type: 'text-delta', id: 't', delta: 'x' }),
    ).toThrow(/text-delta/);
  });

  it('shows the arguments of a tool call as they stream', () => {
    const answer = new StreamingAnswer('a1');
    answer.apply({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'save' });
    answer.apply({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"text":"mil' });
    expect(answer.message.parts[0]).toMatchObject({
      type: 'tool-save',
      state: 'input-streaming',
      input: { text: 'mil' },
    });
  });
});
