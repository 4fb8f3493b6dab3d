import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { recordingModel } from '@/tests/helpers/recording-model';
import type { QuantaMessage } from '../protocol';
import {
  estimateTokens,
  fitContext,
  messageTokens,
  type PlacedMessage,
  splitPoint,
  transcript,
} from './compaction';

const text = (role: 'user' | 'assistant', words: string): QuantaMessage => ({
  id: `${role}-${words.slice(0, 12)}`,
  role,
  parts: [{ type: 'text', text: words }],
});

/** A conversation of `turns` question-and-answer pairs, each message about `size` characters. */
function conversation(turns: number, size = 400): PlacedMessage[] {
  return Array.from({ length: turns }, (_, turn) => [
    text('user', `Question ${turn}: ${'q'.repeat(size)}`),
    text('assistant', `Answer ${turn}: ${'a'.repeat(size)}`),
  ])
    .flat()
    .map((message, position) => ({ position, message }));
}

/** A model that answers every call with `answer`, and keeps each call's prompt as JSON. */
function summariser(answer = 'They talked about q and a.') {
  const prompts: string[] = [];
  const { model } = recordingModel((prompt) => {
    prompts.push(JSON.stringify(prompt));
    return answer;
  });
  return { model, prompts };
}

describe('splitPoint', () => {
  const roles = ['user', 'assistant', 'user', 'assistant', 'user'] as const;

  it('keeps everything that fits', () => {
    expect(splitPoint(roles, [10, 10, 10, 10, 10], 0, 50)).toBeUndefined();
    expect(splitPoint(roles, [10, 10, 10, 10, 10], 10, 50)).toBe(4);
  });

  it('keeps the newest turns that fit in half the budget, from a user message', () => {
    expect(splitPoint(roles, [30, 30, 10, 10, 10], 0, 70)).toBe(2);
    expect(splitPoint(roles, [30, 30, 30, 30, 10], 0, 70)).toBe(4);
  });

  it('keeps the last turn whole however big, and has nothing to summarise before a first', () => {
    expect(splitPoint(roles, [10, 10, 10, 10, 500], 0, 100)).toBe(4);
    expect(splitPoint(['user', 'assistant'], [10, 500], 0, 100)).toBeUndefined();
  });
});

describe('fitContext', () => {
  it('sends a history that fits as it is, without calling the model', async () => {
    const { model, prompts } = summariser();
    const history = conversation(3);
    const context = await fitContext({ model, history, summary: null, budget: 10_000 });
    expect(context).toEqual({
      summary: null,
      messages: history.map(({ message }) => message),
      compacted: false,
    });
    expect(prompts).toEqual([]);
  });

  it('summarises the older turns once and keeps the newest verbatim, within the budget', async () => {
    const { model, prompts } = summariser();
    const history = conversation(20);
    const budget = 1_000;
    const context = await fitContext({ model, history, summary: null, budget });
    expect(context.compacted).toBe(true);
    expect(context.summary?.text).toBe('They talked about q and a.');
    const kept = history.findIndex(({ message }) => message === context.messages[0]);
    expect(context.summary?.through).toBe(history[kept]?.position);
    expect(context.messages.at(-1)).toBe(history.at(-1)?.message);
    expect(context.messages[0]?.role).toBe('user');
    const sent = estimateTokens(context.summary?.text) + estimateTokens(context.messages);
    expect(sent).toBeLessThanOrEqual(budget);
    // The summariser read every older message, in parts that each fit the budget.
    expect(prompts.length).toBeGreaterThan(1);
    for (const prompt of prompts) expect(estimateTokens(prompt)).toBeLessThanOrEqual(budget);
    const read = prompts.join('');
    for (let turn = 0; turn < kept / 2; turn++) expect(read).toContain(`Question ${turn}:`);
    // Each part after the first builds on the summary so far.
    expect(prompts[1]).toContain('The summary so far');
  });

  it('starts from a stored summary, and folds it into the next one', async () => {
    const { model, prompts } = summariser('Newer summary.');
    const history = conversation(20);
    const summary = { text: 'Stored summary.', through: 10 };
    const fits = await fitContext({ model, history, summary, budget: 100_000 });
    expect(fits.messages).toEqual(history.slice(10).map(({ message }) => message));
    expect(fits.summary).toBe(summary);

    const compacted = await fitContext({ model, history, summary, budget: 1_000 });
    expect(compacted.summary?.text).toBe('Newer summary.');
    expect(compacted.summary?.through).toBeGreaterThan(10);
    expect(prompts[0]).toContain('Stored summary.');
    expect(prompts.join('')).not.toContain('Question 4:');
  });

  it('fails when the model cannot summarise', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw new Error('The model is away');
      },
    });
    await expect(
      fitContext({ model, history: conversation(20), summary: null, budget: 1_000 }),
    ).rejects.toThrow('The model is away');
  });
});

describe('messageTokens', () => {
  it('counts what the model reads of a tool call, not the widget data the user saw', () => {
    const call = (data: number[]): QuantaMessage => ({
      id: 'a',
      role: 'assistant',
      parts: [
        {
          type: 'tool-plot',
          toolCallId: 'c',
          state: 'output-available',
          input: { series: 'sales' },
          output: {
            isError: false,
            modelText: 'Plotted 3 points.',
            durationMs: 4,
            ui: { kind: 'widget', label: 'Open chart', widget: 'chart', data },
          },
        },
        { type: 'text', text: 'Here is the chart.' },
      ],
    });
    const small = messageTokens(call([1, 2, 3]));
    expect(messageTokens(call(Array.from({ length: 10_000 }, (_, i) => i)))).toBe(small);
    expect(small).toBe(
      Math.ceil(
        (JSON.stringify(['tool-plot', { series: 'sales' }, 'Plotted 3 points.']).length +
          'Here is the chart.'.length) /
          4,
      ),
    );
  });
});

describe('transcript', () => {
  it('writes tool calls and results as text, leaving reasoning out', () => {
    expect(
      transcript([
        { role: 'user', content: 'Add 2 and 3' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Use the tool.' },
            { type: 'tool-call', toolCallId: 'c', toolName: 'add', input: { a: 2, b: 3 } },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c',
              toolName: 'add',
              output: { type: 'text', value: '5' },
            },
          ],
        },
      ]),
    ).toBe(
      'user: Add 2 and 3\n\nassistant: [called add with {"a":2,"b":3}]\n\ntool: [add returned "5"]',
    );
  });
});
