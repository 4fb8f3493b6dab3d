import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { stepCountIs, streamText } from 'ai';
import { convertReadableStreamToArray } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { memoryServices } from '@/tests/helpers/tool-services';
import { demoIntents, toolSet } from '@/tools';
import { validateArgs } from '../tools';
import { toAiTools } from './ai-tools';
import { recognise } from './demo-intents';
import { createDemoModel } from './demo-model';

const shipped = toolSet.tools.map(
  (tool): LanguageModelV3FunctionTool => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters as LanguageModelV3FunctionTool['inputSchema'],
  }),
);
const ALL = new Set(['calculate', 'show_counter']);

const user = (text: string): LanguageModelV3Prompt[number] => ({
  role: 'user',
  content: [{ type: 'text', text }],
});

async function call(prompt: LanguageModelV3Prompt, tools = shipped) {
  const options: LanguageModelV3CallOptions = { prompt, tools };
  const { stream } = await createDemoModel({ delayMs: 0, intents: demoIntents }).doStream(options);
  const parts = await convertReadableStreamToArray(stream);
  const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
  const calls = parts.flatMap((part) =>
    part.type === 'tool-call' ? [{ tool: part.toolName, args: JSON.parse(part.input) }] : [],
  );
  const finish = parts.find(
    (part): part is Extract<LanguageModelV3StreamPart, { type: 'finish' }> =>
      part.type === 'finish',
  );
  return { parts, deltas, text: deltas.join(''), calls, finish };
}

/** Each call's arguments checked against the shipped tool's own schema. */
function expectValid(calls: { tool: string; args: unknown }[]) {
  for (const { tool, args } of calls) {
    const definition = toolSet.get(tool);
    expect(definition, tool).toBeDefined();
    if (definition) expect(validateArgs(definition, args)).toEqual({ valid: true });
  }
}

describe('recognise', () => {
  it('lets an explicit request win over a keyword in it', () => {
    const shipped = new Set(['show_counter', 'save_note', 'fetch_url', 'show_table']);
    expect(recognise('remember that the counter is at 3', demoIntents, shipped)).toEqual([
      { tool: 'save_note', args: { text: 'the counter is at 3' } },
    ]);
    expect(recognise('read https://example.com/counter', demoIntents, shipped)).toEqual([
      { tool: 'fetch_url', args: { url: 'https://example.com/counter' } },
    ]);
  });

  it('finds one request per clause, several in one message', () => {
    expect(
      recognise(
        'calculate 1 + 1 and show me a counter starting at 7. What is 3*3?',
        demoIntents,
        ALL,
      ),
    ).toEqual([
      { tool: 'calculate', args: { expression: '1 + 1' } },
      { tool: 'show_counter', args: { start: 7 } },
      { tool: 'calculate', args: { expression: '3*3' } },
    ]);
  });

  it('only asks for tools that are available', () => {
    const onlyCounter = new Set(['show_counter']);
    expect(recognise('calculate 1 + 1 and show me a counter', demoIntents, onlyCounter)).toEqual([
      { tool: 'show_counter', args: {} },
    ]);
    expect(recognise('calculate 1 + 1', demoIntents, new Set())).toEqual([]);
  });

  it('has an intent for every shipped tool, each recognising its own example', () => {
    expect(demoIntents.map((intent) => intent.tool).sort()).toEqual(
      toolSet.tools.map((tool) => tool.name).sort(),
    );
    for (const intent of demoIntents) {
      const calls = recognise(intent.example, demoIntents, new Set([intent.tool]));
      expect(
        calls.map((call) => call.tool),
        intent.example,
      ).toEqual([intent.tool]);
      expectValid(calls);
    }
  });
});

describe('the demo model', () => {
  it('calls calculate with valid arguments', async () => {
    const { calls, text, finish } = await call([user('calculate 12 * (3 + 4)')]);
    expect(calls).toEqual([{ tool: 'calculate', args: { expression: '12 * (3 + 4)' } }]);
    expectValid(calls);
    expect(text).toBe('Let me work that out.');
    expect(finish?.finishReason.unified).toBe('tool-calls');
  });

  it('calls show_counter with valid arguments', async () => {
    const { calls } = await call([user('show me a counter starting at 3')]);
    expect(calls).toEqual([{ tool: 'show_counter', args: { start: 3 } }]);
    expectValid(calls);
  });

  it('calls both tools when one message asks for both, with distinct call ids', async () => {
    const { calls, parts, text } = await call([user('What is 2 + 3? And show me a counter')]);
    expect(calls).toEqual([
      { tool: 'calculate', args: { expression: '2 + 3' } },
      { tool: 'show_counter', args: {} },
    ]);
    expectValid(calls);
    expect(text).toBe('Let me work that out. I’ll open a counter for you.');
    const ids = parts.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    expect(new Set(ids).size).toBe(2);
  });

  it('answers from the last user message only', async () => {
    const { calls } = await call([
      user('calculate 1 + 1'),
      { role: 'assistant', content: [{ type: 'text', text: 'Let me work that out.' }] },
      user('show me a counter'),
    ]);
    expect(calls).toEqual([{ tool: 'show_counter', args: {} }]);
  });

  it('says one lead-in for two calls of one tool', async () => {
    const { text, calls } = await call([user('what is 1 + 1? And what is 2 * 3?')]);
    expect(calls).toHaveLength(2);
    expect(text).toBe('Let me work that out.');
  });

  it('answers from the tool results in words that use them, a failure in the tool’s words', async () => {
    const { text, calls, finish } = await call([
      user('calculate 6 * 7 and show me a counter starting at 3 and plot 1, 2'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me work that out. I’ll open a counter for you.' },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'calculate',
            input: { expression: '6 * 7' },
          },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'show_counter', input: { start: 3 } },
          { type: 'tool-call', toolCallId: 'c3', toolName: 'plot', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'calculate',
            output: { type: 'text', value: '6 * 7 = 42' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'show_counter',
            output: { type: 'text', value: 'Showed the user a counter starting at 3.' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c3',
            toolName: 'plot',
            output: { type: 'error-text', value: 'series[0].name: too long\nsee the schema' },
          },
        ],
      },
    ]);
    expect(calls).toEqual([]);
    expect(finish?.finishReason.unified).toBe('stop');
    expect(text).toBe(
      '6 × 7 = 42.\n\n' +
        'Here’s a counter starting at 3 — use the buttons to change it.\n\n' +
        'Sorry, that didn’t work: series[0].name: too long.',
    );
    expect(text).not.toContain('says');
  });

  it.each([
    [
      'plot',
      { kind: 'line', title: 'Squares of 1 to 5' },
      'Plotted a line chart "Squares of 1 to 5" with 1 series:\n- "n²": 5 points',
      'Here’s “Squares of 1 to 5” as a line chart — open it to see it full screen.',
    ],
    [
      'show_table',
      { title: 'Moons', rows: [['Earth', 1]] },
      'Showed the user a table "Moons" of 1 row and 2 columns.',
      'Here’s “Moons”, 1 row — open the table to sort and filter it.',
    ],
    [
      'save_note',
      { text: 'buy milk' },
      'Saved the note: "buy milk". The session has 2 notes.',
      'I saved “buy milk” to this session’s notes.',
    ],
    [
      'add_task',
      { title: 'write the release notes' },
      'Added task t3 "write the release notes" in todo. The board has 3 tasks.',
      'I added “write the release notes” to your task board.',
    ],
    [
      'list_tasks',
      {},
      'todo (2):\n- t2: buy milk\n- t3: call mum\ndoing (1):\n- t1: water the plants\ndone (0):',
      'Here’s your task board — To do: “buy milk” (t2), “call mum” (t3); Doing: “water the plants” (t1).',
    ],
    [
      'list_tasks',
      {},
      'The task board is empty.',
      'Your task board is empty: ask me to add a task.',
    ],
    [
      'update_task',
      { id: 't1', column: 'done' },
      't1 is now "water the plants" in done.',
      'Done: “water the plants” is now in Done.',
    ],
    [
      'update_task',
      { id: 't1', delete: true },
      'Deleted t1 "water the plants".',
      'I deleted “water the plants” from your task board.',
    ],
    [
      'fetch_url',
      { url: 'https://example.com' },
      'URL: https://example.com/\nTitle: Example Domain\n\nThis domain is for use in examples.',
      'I read “Example Domain” (https://example.com/). It begins: “This domain is for use in examples.”',
    ],
    [
      'fetch_url',
      { url: 'https://example.com/a.txt' },
      'URL: https://example.com/a.txt\n\nplain\n\ntext',
      'I read https://example.com/a.txt. It begins: “plain text”',
    ],
  ])('answers %s from its result', async (tool, input, result, answer) => {
    const { text } = await call([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: tool, input }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: tool,
            output: { type: 'text', value: result },
          },
        ],
      },
    ]);
    expect(text).toBe(answer);
  });

  it('answers a tool it has no words for with the first line of its result', async () => {
    const { text } = await call([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'mystery',
            output: { type: 'text', value: 'Found 3 files:\n- a\n- b\n- c' },
          },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'oracle',
            output: { type: 'json', value: { value: 42 } },
          },
        ],
      },
    ]);
    expect(text).toBe('Found 3 files.\n\n{"value":42}.');
  });

  it('otherwise explains itself and how to configure a real model, in several deltas', async () => {
    const { text, deltas, calls, finish } = await call([user('hello there')]);
    expect(calls).toEqual([]);
    expect(finish?.finishReason.unified).toBe('stop');
    expect(deltas.length).toBeGreaterThan(10);
    expect(text).toContain('offline demo model');
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_COMPATIBLE_BASE_URL']) {
      expect(text).toContain(name);
    }
    expect(text).toContain('“calculate 12 * (3 + 4)”');
    expect(text).toContain('“show me a counter starting at 3”');
  });

  it('does not call or suggest tools it was not given', async () => {
    const { text, calls } = await call([user('calculate 1 + 1')], []);
    expect(calls).toEqual([]);
    expect(text).toContain('OPENAI_API_KEY');
    expect(text).not.toContain('Try one of these');
  });

  it('reports usage: about four characters a token', async () => {
    const prompt = [user('hello there')];
    const { text, finish } = await call(prompt);
    expect(finish?.usage.outputTokens.total).toBe(Math.ceil(text.length / 4));
    expect(finish?.usage.inputTokens.total).toBe(Math.ceil(JSON.stringify(prompt).length / 4));
  });

  it('sends its parts in order: start, text, tool calls, finish', async () => {
    const { parts } = await call([user('show me a counter')]);
    const types = parts.map((part) => part.type);
    expect(types[0]).toBe('stream-start');
    expect(types[1]).toBe('text-start');
    expect(types.slice(-3)).toEqual(['text-end', 'tool-call', 'finish']);
  });

  it('stops writing when the call is aborted', async () => {
    const stopped = new AbortController();
    const { stream } = await createDemoModel({ delayMs: 5 }).doStream({
      prompt: [user('hello there')],
      abortSignal: stopped.signal,
    });
    const reader = stream.getReader();
    const seen: LanguageModelV3StreamPart[] = [];
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      seen.push(next.value);
      if (next.value.type === 'text-delta') stopped.abort();
    }
    // The word being written when Stop came may still arrive; no more after it.
    expect(seen.filter((part) => part.type === 'text-delta').length).toBeLessThanOrEqual(2);
    expect(seen.at(-1)?.type).toBe('finish');
  });

  it('only streams: doGenerate fails', async () => {
    await expect(createDemoModel().doGenerate({ prompt: [user('hi')] })).rejects.toThrow(
      'The demo model only streams.',
    );
  });

  it('through streamText with the shipped tools: calls both, then answers from the results', async () => {
    const result = streamText({
      model: createDemoModel({ delayMs: 0, intents: demoIntents }),
      prompt: 'calculate 12 * (3 + 4) and show me a counter starting at 3',
      tools: toAiTools(
        toolSet,
        { agentId: 'a1', sessionId: 's1', services: memoryServices() },
        { maxInputBytes: 64 * 1024, maxWidgetDataBytes: 256 * 1024 },
      ),
      stopWhen: stepCountIs(3),
    });
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.toolResults.map((tool) => [tool.toolName, tool.output])).toEqual([
      ['calculate', expect.objectContaining({ isError: false, modelText: '12 * (3 + 4) = 84' })],
      [
        'show_counter',
        expect.objectContaining({
          isError: false,
          modelText: 'Showed the user a counter starting at 3.',
        }),
      ],
    ]);
    expect(steps[0]?.text).toBe('Let me work that out. I’ll open a counter for you.');
    expect(await result.text).toBe(
      '12 × (3 + 4) = 84.\n\n' + 'Here’s a counter starting at 3 — use the buttons to change it.',
    );
    expect(await result.finishReason).toBe('stop');
    const usage = await result.totalUsage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBe(
      steps.reduce((sum, step) => sum + Math.ceil(step.text.length / 4), 0),
    );
  });
});
