import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { countedReads } from '@/tests/helpers/counted-reads';
import { recordingModel } from '@/tests/helpers/recording-model';
import { deepFreeze } from '../deep-freeze';
import type { QuantaMessage } from '../protocol';
import {
  estimateTokens,
  messageTokens,
  type PlacedMessage,
  planContext,
  splitPoint,
  summarise,
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

describe('planContext and summarise', () => {
  it('sends a history that fits as it is', () => {
    const history = conversation(3);
    expect(planContext({ history, summary: null, budget: 10_000 })).toEqual({
      kind: 'as-is',
      summary: null,
      messages: history.map(({ message }) => message),
    });
  });

  it('summarises the older turns and keeps the newest verbatim, within the budget', async () => {
    const { model, prompts } = summariser();
    const history = conversation(20);
    const budget = 1_000;
    const plan = planContext({ history, summary: null, budget });
    if (plan.kind !== 'summarise') throw new Error(`expected a summary, got ${plan.kind}`);
    const kept = history.findIndex(({ message }) => message === plan.messages[0]);
    expect(plan.through).toBe(history[kept]?.position);
    expect(plan.older).toEqual(history.slice(0, kept).map(({ message }) => message));
    expect(plan.messages.at(-1)).toBe(history.at(-1)?.message);
    expect(plan.messages[0]?.role).toBe('user');

    const text = await summarise({ model, previous: undefined, older: plan.older, budget });
    expect(text).toBe('They talked about q and a.');
    expect(estimateTokens(text) + estimateTokens(plan.messages)).toBeLessThanOrEqual(budget);
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
    expect(planContext({ history, summary, budget: 100_000 })).toEqual({
      kind: 'as-is',
      summary,
      messages: history.slice(10).map(({ message }) => message),
    });

    const plan = planContext({ history, summary, budget: 1_000 });
    if (plan.kind !== 'summarise') throw new Error(`expected a summary, got ${plan.kind}`);
    expect(plan.previous).toBe(summary);
    expect(plan.through).toBeGreaterThan(10);
    expect(plan.older[0]).toBe(history[10]?.message);
    const text = await summarise({
      model,
      previous: summary.text,
      older: plan.older,
      budget: 1_000,
    });
    expect(text).toBe('Newer summary.');
    expect(prompts[0]).toContain('Stored summary.');
    expect(prompts.join('')).not.toContain('Question 4:');
  });

  it('fails when the model cannot summarise', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw new Error('The model is away');
      },
    });
    const older = conversation(2).map(({ message }) => message);
    await expect(summarise({ model, previous: undefined, older, budget: 1_000 })).rejects.toThrow(
      'The model is away',
    );
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

  it('sizes a frozen message once, as it sizes an unfrozen copy', () => {
    const message = text('assistant', 'An answer of some length.');
    const frozen = countedReads(deepFreeze(structuredClone(message)), 'parts');
    expect(messageTokens(frozen.value)).toBe(messageTokens(message));
    expect(messageTokens(frozen.value)).toBe(messageTokens(message));
    expect(frozen.reads()).toBe(1);
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
