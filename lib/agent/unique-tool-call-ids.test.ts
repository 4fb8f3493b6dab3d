import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream, wrapLanguageModel } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { countedReads } from '@/tests/helpers/counted-reads';
import { deepFreeze } from '../deep-freeze';
import { ID_PATTERN } from '../ids';
import type { QuantaMessage } from '../protocol';
import { partTransforms } from './part-transforms';
import { uniqueToolCallIds, usedToolCallIds } from './unique-tool-call-ids';

/** One call streamed whole: its input start, a delta, its end, the call, a provider's result. */
const streamedCall = (id: string): LanguageModelV3StreamPart[] => [
  { type: 'tool-input-start', id, toolName: 'search' },
  { type: 'tool-input-delta', id, delta: '{}' },
  { type: 'tool-input-end', id },
  { type: 'tool-call', toolCallId: id, toolName: 'search', input: '{}' },
  { type: 'tool-result', toolCallId: id, toolName: 'search', result: 'found' },
];

/** The ids each part of each model call carries, after the middleware. */
async function idsSeen(used: Set<string>, ...calls: LanguageModelV3StreamPart[][]) {
  let next = 0;
  const model = wrapLanguageModel({
    model: new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: calls[next++] ?? [] }) }),
    }),
    middleware: partTransforms(uniqueToolCallIds(used)),
  });
  const seen: string[][] = [];
  for (const _ of calls) {
    const parts = await convertReadableStreamToArray((await model.doStream({ prompt: [] })).stream);
    seen.push(
      parts.map(
        (part) => ('toolCallId' in part ? part.toolCallId : 'id' in part ? part.id : '') ?? '',
      ),
    );
  }
  return seen;
}

describe('uniqueToolCallIds', () => {
  it('keeps an id the session has not used, and remembers it', async () => {
    const used = new Set<string>();
    expect(await idsSeen(used, streamedCall('call_0'))).toEqual([Array(5).fill('call_0')]);
    expect(used).toEqual(new Set(['call_0']));
  });

  it('renames an id used before, the same way in every part of the call', async () => {
    const [seen] = await idsSeen(new Set(['call_0']), streamedCall('call_0'));
    const fresh = seen?.[0];
    expect(fresh).toMatch(ID_PATTERN);
    expect(seen).toEqual(Array(5).fill(fresh));
  });

  it('tells apart two calls of one answer with the same id, and calls of the next answer', async () => {
    const used = new Set<string>();
    const [first, second] = await idsSeen(
      used,
      [...streamedCall('call_0'), ...streamedCall('call_0')],
      [{ type: 'tool-call', toolCallId: 'call_0', toolName: 'search', input: '{}' }],
    );
    expect(first?.slice(0, 5)).toEqual(Array(5).fill('call_0'));
    const renamed = first?.[5];
    expect(renamed).toMatch(ID_PATTERN);
    expect(first?.slice(5)).toEqual(Array(5).fill(renamed));
    expect(second?.[0]).toMatch(ID_PATTERN);
    expect(new Set([...(first ?? []), ...(second ?? [])]).size).toBe(3);
  });

  it('leaves other parts alone', async () => {
    const text: LanguageModelV3StreamPart = { type: 'text-delta', id: 'call_0', delta: 'hi' };
    const model = wrapLanguageModel({
      model: new MockLanguageModelV3({
        doStream: async () => ({ stream: simulateReadableStream({ chunks: [text] }) }),
      }),
      middleware: partTransforms(uniqueToolCallIds(new Set(['call_0']))),
    });
    const parts = await convertReadableStreamToArray((await model.doStream({ prompt: [] })).stream);
    expect(parts).toEqual([text]);
  });
});

describe('usedToolCallIds', () => {
  const called = (...ids: string[]): QuantaMessage => ({
    id: `m-${ids.join('-')}`,
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Looking.' },
      ...ids.map(
        (toolCallId) =>
          ({
            type: 'tool-search',
            toolCallId,
            state: 'input-available',
            input: {},
          }) as const,
      ),
    ],
  });

  it("holds every tool call's id in the history, frozen messages or not", () => {
    const history = [deepFreeze(called('a', 'b')), called('c'), deepFreeze(called())];
    expect([...usedToolCallIds(history)]).toEqual(['a', 'b', 'c']);
    // The turn adds its own calls' ids to the set: the next turn starts from the history.
    usedToolCallIds(history).add('d');
    expect([...usedToolCallIds(history)]).toEqual(['a', 'b', 'c']);
  });

  it('reads a frozen message once', () => {
    const message = countedReads(deepFreeze(called('a')), 'parts');
    usedToolCallIds([message.value]);
    expect([...usedToolCallIds([message.value])]).toEqual(['a']);
    expect(message.reads()).toBe(1);
  });

  it('reads a message that may still change again', () => {
    const message = called('a');
    expect([...usedToolCallIds([message])]).toEqual(['a']);
    message.parts = called('b').parts;
    expect([...usedToolCallIds([message])]).toEqual(['b']);
  });
});
