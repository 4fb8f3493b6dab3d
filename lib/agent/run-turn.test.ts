import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { readUIMessageStream, simulateReadableStream, wrapLanguageModel } from 'ai';
import { convertReadableStreamToArray, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { finish } from '@/tests/helpers/model-parts';
import { memoryServices } from '@/tests/helpers/tool-services';
import { demoIntents } from '@/tools';
import { ID_PATTERN } from '../ids';
import type { QuantaMessage } from '../protocol';
import { createToolSet, defineTool, note, ok, type Tool, widget } from '../tools';
import { createDemoModel } from './demo-model';
import { toModelMessages } from './model-messages';
import { runTurn, type Turn } from './run-turn';
import { stallTimeout } from './stall-timeout';

const text = (words: string[]): LanguageModelV3StreamPart[] => [
  { type: 'text-start', id: 't' },
  ...words.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't', delta })),
  { type: 'text-end', id: 't' },
];
const call = (
  toolName: string,
  input: unknown,
  id = `c_${toolName}`,
): LanguageModelV3StreamPart => ({
  type: 'tool-call',
  toolCallId: id,
  toolName,
  input: JSON.stringify(input),
});

/** A model answering with `steps` in turn, recording what each call was sent. */
function scripted(steps: LanguageModelV3StreamPart[][]) {
  const prompts: LanguageModelV3CallOptions['prompt'][] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      prompts.push(options.prompt);
      const chunks = steps[prompts.length - 1] ?? [...text(['done']), finish('stop')];
      return { stream: simulateReadableStream({ chunks }) };
    },
  });
  return { model, prompts };
}

const executed = vi.fn();
const saveNote = defineTool({
  name: 'save_note',
  description: 'Saves a note.',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
  execute: (_a, _c, { text }) => {
    executed(text);
    return ok(`saved ${text}`, note('NOTE-FOR-READER'));
  },
});
const showCounter = defineTool({
  name: 'show_counter',
  description: 'Shows a counter.',
  parameters: { type: 'object', properties: {} },
  widget: { id: 'counter', title: 'Counter', data: { type: 'object' } },
  execute: () => ok('counter shown', widget('WIDGET-LABEL', 'counter', { secret: 'WIDGET-DATA' })),
});
const countFrom = defineTool({
  name: 'count_from',
  description: 'Shows a counter starting at a number.',
  parameters: { type: 'object', properties: { from: { type: 'number' } }, required: ['from'] },
  widget: { id: 'count', title: 'Count', data: { type: 'object' } },
  execute: (_a, _c, { from }) => ok(`counting from ${from}`, widget('Count', 'count', { from })),
});
const explode = defineTool({
  name: 'explode',
  description: 'Throws.',
  parameters: { type: 'object', properties: {} },
  execute: () => {
    throw new Error('kaboom');
  },
});
// Each `meet` call waits for the other: they can only both succeed if they run at the same time.
let arrivals = 0;
let bothArrived: () => void = () => {};
const together = new Promise<void>((resolve) => (bothArrived = resolve));
const meet = defineTool({
  name: 'meet',
  description: 'Waits for a second call.',
  parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
  timeoutMs: 1_000,
  execute: async (_a, _c, { who }) => {
    arrivals += 1;
    if (arrivals === 2) bothArrived();
    await together;
    return ok(`${who} met`);
  },
});
const tools = createToolSet([
  saveNote as Tool,
  showCounter as Tool,
  countFrom as Tool,
  explode as Tool,
  meet as Tool,
]);

/** A turn of `model` with the test tools, saying hi. */
const turn = (model: Turn['model']): Turn => ({
  model,
  modelId: 'test:model',
  history: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
  messageId: 'a1',
  toolSet: tools,
  services: memoryServices(),
  sessionId: 's1',
  agentId: 's1',
  maxSteps: 5,
  maxAnswerBytes: 1024 * 1024,
  maxToolInputBytes: 64 * 1024,
  maxWidgetDataBytes: 256 * 1024,
  signal: new AbortController().signal,
  onStep: async () => {},
  onEnd: async () => {},
});

async function run(model: Turn['model'], extra: Partial<Turn> = {}) {
  const ended: QuantaMessage[] = [];
  const stepped: QuantaMessage[] = [];
  const stream = await runTurn({
    ...turn(model),
    onStep: async (message) => void stepped.push(message),
    onEnd: async (message) => void ended.push(message),
    ...extra,
  });
  let last: QuantaMessage | undefined;
  for await (const message of readUIMessageStream<QuantaMessage>({ stream })) last = message;
  return { last, ended, stepped };
}

describe('runTurn', () => {
  it('streams text and ends complete with usage per step and turn', async () => {
    const { model } = scripted([[...text(['Hel', 'lo']), finish('stop')]]);
    const { last, ended } = await run(model, { price: { input: 1, output: 2 } });
    expect(last?.parts.find((part) => part.type === 'text')).toMatchObject({ text: 'Hello' });
    expect(ended[0]?.metadata).toMatchObject({
      model: 'test:model',
      status: 'complete',
      steps: [{ inputTokens: 10, outputTokens: 5 }],
      usage: { inputTokens: 10, outputTokens: 5, cost: 20 / 1_000_000 },
    });
  });

  it('runs tools through runTool: the UI part gets the ui, the model only the text', async () => {
    const { model, prompts } = scripted([
      [call('save_note', { text: 'milk' }), call('show_counter', {}), finish('tool-calls')],
    ]);
    const { ended, stepped } = await run(model);
    const tool = ended[0]?.parts.find((part) => part.type === 'tool-save_note');
    expect(tool).toMatchObject({
      state: 'output-available',
      output: {
        isError: false,
        modelText: 'saved milk',
        ui: { kind: 'text', text: 'NOTE-FOR-READER' },
        durationMs: expect.any(Number),
      },
    });
    const sent = JSON.stringify(prompts[1]);
    expect(sent).toContain('saved milk');
    expect(sent).toContain('counter shown');
    expect(sent).not.toMatch(/NOTE-FOR-READER|WIDGET-LABEL|WIDGET-DATA/);
    // Saved after the step that called the tools; the last step's message is the end's.
    expect(stepped).toHaveLength(1);
    expect(stepped[0]?.parts.find((part) => part.type === 'tool-save_note')).toMatchObject({
      state: 'output-available',
    });
  });

  it('saves a step that called tools once, even when the answer after it is empty', async () => {
    const { model } = scripted([
      [call('save_note', { text: 'milk' }), finish('tool-calls')],
      [finish('stop')],
    ]);
    const { ended, stepped } = await run(model);
    expect(stepped).toHaveLength(1);
    // The end's message holds the empty step's start, as a client reading the turn does.
    expect(ended[0]?.parts.map((part) => part.type)).toEqual([
      'step-start',
      'tool-save_note',
      'step-start',
    ]);
  });

  it('runs parallel tool calls concurrently', async () => {
    const { model, prompts } = scripted([
      [
        call('meet', { who: 'ada' }, 'c1'),
        call('meet', { who: 'bob' }, 'c2'),
        finish('tool-calls'),
      ],
    ]);
    await run(model);
    const sent = JSON.stringify(prompts[1]);
    expect(sent).toContain('ada met');
    expect(sent).toContain('bob met');
  });

  it('gives the model our validation message and does not execute the tool', async () => {
    executed.mockClear();
    const { model, prompts } = scripted([[call('save_note', { text: 5 }), finish('tool-calls')]]);
    await run(model);
    expect(executed).not.toHaveBeenCalled();
    expect(JSON.stringify(prompts[1])).toContain('text: must be string');
  });

  it('turns a throwing tool into an error result and still finishes', async () => {
    const { model, prompts } = scripted([[call('explode', {}), finish('tool-calls')]]);
    const { ended } = await run(model);
    expect(JSON.stringify(prompts[1])).toContain('kaboom');
    expect(ended[0]?.metadata?.status).toBe('complete');
  });

  it('ends failed with the cause in plain words and keeps the partial text', async () => {
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of text(['partial '])) controller.enqueue(part);
          },
          // The socket closes after the first words have been read, as undici reports it.
          pull(controller) {
            controller.error(new TypeError('terminated'));
          },
        }),
      }),
    });
    const { ended } = await run(model);
    expect(ended[0]?.metadata).toMatchObject({
      status: 'failed',
      error: 'The connection to the model dropped in the middle of the answer.',
    });
    expect(JSON.stringify(ended[0]?.parts)).toContain('partial');
  });

  it('shows the summary it writes first, and gives it to the model with the history', async () => {
    const { model, prompts } = scripted([[...text(['Hi']), finish('stop')]]);
    const { last, ended } = await run(model, {
      summary: { kind: 'new', write: async () => 'They spoke of milk.' },
    });
    expect(last?.parts.find((part) => part.type === 'data-summary')).toMatchObject({
      data: { status: 'done' },
    });
    expect(JSON.stringify(prompts[0]?.[0])).toContain('They spoke of milk.');
    expect(ended[0]?.metadata).toMatchObject({ status: 'complete' });
  });

  it('ends failed, without calling the model, when the summary cannot be written', async () => {
    const { model, prompts } = scripted([[...text(['Hi']), finish('stop')]]);
    const { last, ended } = await run(model, {
      summary: { kind: 'new', write: () => Promise.reject(new Error('overloaded')) },
    });
    expect(prompts).toEqual([]);
    const error = 'Summarising the earlier messages failed: overloaded';
    expect(ended).toHaveLength(1);
    expect(ended[0]?.metadata).toMatchObject({ status: 'failed', error });
    expect(last?.parts.find((part) => part.type === 'data-summary')).toMatchObject({
      data: { status: 'summarising' },
    });
  });

  it('ends failed with an error chunk when the history cannot be given to the model', async () => {
    const { model, prompts } = scripted([[...text(['Hi']), finish('stop')]]);
    const history = [
      { id: 'u1', role: 'user', parts: [{ type: 'file', mediaType: 'image/png' }] },
    ] as unknown as QuantaMessage[];
    const ended: QuantaMessage[] = [];
    const chunks = await convertReadableStreamToArray(
      await runTurn({
        ...turn(model),
        history,
        onEnd: async (message) => void ended.push(message),
      }),
    );
    expect(prompts).toEqual([]);
    expect(chunks.at(0)).toMatchObject({ type: 'start', messageId: 'a1' });
    expect(chunks.at(-1)).toMatchObject({ type: 'error' });
    expect(ended).toHaveLength(1);
    expect(ended[0]?.metadata).toMatchObject({ status: 'failed' });
  });

  it('saves once, not as failed, when its reader leaves before the model is called', async () => {
    const { model } = scripted([[...text(['Hi']), finish('stop')]]);
    let summarised = (_summary: string) => {};
    const summary = new Promise<string>((resolve) => {
      summarised = resolve;
    });
    const ended: QuantaMessage[] = [];
    const stream = await runTurn({
      ...turn(model),
      summary: { kind: 'new', write: () => summary },
      onEnd: async (message) => void ended.push(message),
    });
    const reader = stream.getReader();
    expect((await reader.read()).value).toMatchObject({ type: 'start' });
    await reader.cancel();
    summarised('They spoke of milk.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended).toHaveLength(1);
    expect(ended[0]?.metadata?.status).not.toBe('failed');
  });

  it('ends failed when the model goes silent mid-answer, keeping the partial text', async () => {
    const silent = new MockLanguageModelV3({
      doStream: async () => ({
        // One part, then neither another part nor the end.
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of text(['partial ']).slice(0, 2)) controller.enqueue(part);
          },
        }),
      }),
    });
    const model = wrapLanguageModel({ model: silent, middleware: stallTimeout(40) });
    const ended: QuantaMessage[] = [];
    const stream = await runTurn({
      ...turn(model),
      onEnd: async (message) => void ended.push(message),
    });
    const began = Date.now();
    const chunks = await convertReadableStreamToArray(stream);
    expect(Date.now() - began).toBeGreaterThanOrEqual(35);
    const error = 'The model sent nothing for 40 ms, so the turn was ended.';
    expect(chunks).toContainEqual({ type: 'error', errorText: error });
    expect(ended[0]?.metadata).toMatchObject({ status: 'failed', error });
    expect(ended[0]?.parts).toContainEqual(expect.objectContaining({ text: 'partial ' }));
  });

  it('ends a turn whose answer outgrows its budget: cut there, marked, failed', async () => {
    let cancelled = false;
    const endless = new MockLanguageModelV3({
      // A model that never stops talking.
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't' });
          },
          pull(controller) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'é'.repeat(50) });
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    });
    const { ended } = await run(endless, { maxAnswerBytes: 1001 });
    const error = 'The answer grew longer than 1001 bytes, so the turn was ended there.';
    expect(ended[0]?.metadata).toMatchObject({ status: 'failed', error });
    const texts = (ended[0]?.parts ?? []).flatMap((part) =>
      part.type === 'text' ? [part.text] : [],
    );
    // 1001 bytes hold 500 two-byte characters, not half of the next one.
    expect(texts).toEqual(['é'.repeat(500), '[answer too long: stopped at 1001 bytes]']);
    expect(ended[0]?.parts.every((part) => part.type !== 'text' || part.state === 'done')).toBe(
      true,
    );
    expect(cancelled).toBe(true);
    expect(endless.doStreamCalls).toHaveLength(1);
  });

  it('counts tool input too, and ends the turn with its calls settled as failed', async () => {
    executed.mockClear();
    const { model, prompts } = scripted([
      [
        call('save_note', { text: 'milk' }, 'c1'),
        { type: 'tool-input-start', id: 'c2', toolName: 'save_note' },
        ...Array.from(
          { length: 100 },
          (): LanguageModelV3StreamPart => ({ type: 'tool-input-delta', id: 'c2', delta: 'x' }),
        ),
      ],
    ]);
    const { ended } = await run(model, { maxAnswerBytes: 50 });
    // Tools run once the model call finishes: the cut call ends the turn before any does, and
    // the model is not called again.
    expect(executed).not.toHaveBeenCalled();
    expect(prompts).toHaveLength(1);
    expect(ended[0]?.metadata?.status).toBe('failed');
    // Both calls are stored as failed, not as running for ever.
    for (const id of ['c1', 'c2']) {
      expect(
        ended[0]?.parts.find((part) => 'toolCallId' in part && part.toolCallId === id),
      ).toMatchObject({
        state: 'output-error',
        errorText: 'The turn ended before this call finished.',
      });
    }
    expect(JSON.stringify(ended[0])).not.toContain('rawInput');
    // The next turn sends them back to the model as calls that failed.
    const history = await toModelMessages([ended[0] as QuantaMessage]);
    expect(JSON.stringify(history)).toContain('The turn ended before this call finished.');
  });

  it('refuses tool arguments over the cap before the tool runs and does not store them', async () => {
    executed.mockClear();
    const long = 'x'.repeat(2000);
    const { model, prompts } = scripted([
      [
        call('save_note', { text: long }, 'c1'),
        call('save_note', { text: 'ok' }, 'c2'),
        finish('tool-calls'),
      ],
    ]);
    const { ended, stepped } = await run(model, { maxToolInputBytes: 1000 });
    // The short call ran; the long one did not, and the model was told why.
    expect(executed.mock.calls).toEqual([['ok']]);
    expect(JSON.stringify(prompts[1])).toContain(
      'The arguments were too long (2011 bytes; at most 1000 bytes), so the tool did not run.',
    );
    const stored = ended[0]?.parts.find((part) => 'toolCallId' in part && part.toolCallId === 'c1');
    expect(stored).toMatchObject({
      state: 'output-available',
      input: { omitted: '2011 bytes of arguments, over the 1000 bytes limit, were not kept.' },
      output: { isError: true },
    });
    expect(JSON.stringify(ended)).not.toContain(long);
    expect(JSON.stringify(stepped)).not.toContain(long);
    // The history still converts for the model: the note as arguments, then the refusal.
    const history = JSON.stringify(await toModelMessages(ended));
    expect(history).toContain('were not kept');
    expect(history).toContain('The arguments were too long');
  });

  it('shows a note instead of a widget whose data is over the limit, and does not store it', async () => {
    const { model } = scripted([[call('show_counter', {}, 'c1'), finish('tool-calls')]]);
    const { ended } = await run(model, { maxWidgetDataBytes: 10 });
    const stored = ended[0]?.parts.find((part) => 'toolCallId' in part && part.toolCallId === 'c1');
    expect(stored).toMatchObject({
      output: {
        isError: false,
        modelText: 'counter shown',
        ui: {
          kind: 'text',
          text: 'The counter widget was not shown: its data (24 bytes) is over the 10 bytes limit.',
        },
      },
    });
    expect(JSON.stringify(ended)).not.toContain('WIDGET-DATA');
  });

  it('streams long tool arguments in a few growing pieces, not token by token', async () => {
    const tokens = Array.from(
      { length: 1024 },
      (): LanguageModelV3StreamPart => ({ type: 'tool-input-delta', id: 'c1', delta: 'xxxx' }),
    );
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'tool-input-start', id: 'c1', toolName: 'save_note' });
            controller.enqueue({ type: 'tool-input-delta', id: 'c1', delta: '{"text":"' });
            for (const token of tokens) controller.enqueue(token);
            controller.close();
          },
        }),
      }),
    });
    const chunks = await convertReadableStreamToArray(await runTurn(turn(model)));
    const pieces = chunks.filter((chunk) => chunk.type === 'tool-input-delta');
    expect(pieces.length).toBeLessThanOrEqual(12);
  });

  it('sends every step the whole history in order: the earlier turns, the prompt, the steps', async () => {
    const { model, prompts } = scripted([[call('save_note', { text: 'x' }), finish('tool-calls')]]);
    const history: QuantaMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'first question' }] },
      { id: 'a0', role: 'assistant', parts: [{ type: 'text', text: 'first answer' }] },
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'second question' }] },
    ];
    await run(model, { history });
    const shape = (prompt: LanguageModelV3CallOptions['prompt'] | undefined) =>
      (prompt ?? []).map((message) =>
        typeof message.content === 'string'
          ? message.role
          : `${message.role}: ${message.content.map((part) => ('text' in part ? part.text : part.type)).join(', ')}`,
      );
    expect(shape(prompts[0])).toEqual([
      'system',
      'user: first question',
      'assistant: first answer',
      'user: second question',
    ]);
    expect(shape(prompts[1])).toEqual([
      'system',
      'user: first question',
      'assistant: first answer',
      'user: second question',
      'assistant: tool-call',
      'tool: tool-result',
    ]);
  });

  it('gives a tool call id used before in the session a fresh one, so each call keeps its own', async () => {
    // A server that numbers calls per answer: call_0 in both steps, and again in the next turn.
    const countStep = (from: number) => [
      call('count_from', { from }, 'call_0'),
      finish('tool-calls'),
    ];
    const first = scripted([countStep(1), countStep(2)]);
    const { ended } = await run(first.model);
    const calls = (message: QuantaMessage | undefined) =>
      (message?.parts ?? []).flatMap((part) =>
        part.type === 'tool-count_from' && part.state === 'output-available'
          ? [{ id: part.toolCallId, output: part.output }]
          : [],
      );
    const [one, two] = calls(ended[0]);
    expect(one).toMatchObject({ id: 'call_0', output: { ui: { data: { from: 1 } } } });
    expect(two?.id).toMatch(ID_PATTERN);
    expect(two?.output).toMatchObject({ ui: { data: { from: 2 } } });
    // The model is sent the calls under the ids they are stored with.
    const sent = JSON.stringify(first.prompts[2]);
    expect(sent).toContain('"toolCallId":"call_0"');
    expect(sent).toContain(`"toolCallId":"${two?.id}"`);

    const next = scripted([countStep(3)]);
    const history: QuantaMessage[] = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'count' }] },
      ended[0] as QuantaMessage,
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'again' }] },
    ];
    const again = await run(next.model, { history, messageId: 'a2' });
    const [three] = calls(again.ended[0]);
    expect(three?.id).toMatch(ID_PATTERN);
    expect([one?.id, two?.id]).not.toContain(three?.id);
    expect(three?.output).toMatchObject({ ui: { data: { from: 3 } } });
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'no_such_tool'])(
    'answers a call of the unknown tool %s with an error result, as any unknown tool',
    async (name) => {
      const { model, prompts } = scripted([[call(name, {}, 'c1'), finish('tool-calls')]]);
      const { ended } = await run(model);
      const part = ended[0]?.parts.find((entry) => 'toolCallId' in entry);
      expect(part).toMatchObject({
        type: 'dynamic-tool',
        toolName: name,
        state: 'output-error',
        errorText: expect.stringContaining(`Model tried to call unavailable tool '${name}'`),
      });
      // The model hears of it and answers on.
      expect(JSON.stringify(prompts[1])).toContain('unavailable tool');
      expect(ended[0]?.metadata?.status).toBe('complete');
    },
  );

  it('with the demo model, calls a tool and answers from its result', async () => {
    const { ended } = await run(createDemoModel({ delayMs: 0, intents: demoIntents }), {
      history: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'show me a counter' }] }],
    });
    const parts = ended[0]?.parts ?? [];
    expect(parts.some((part) => part.type === 'tool-show_counter')).toBe(true);
    expect(JSON.stringify(parts)).toContain('counter shown');
  });
});
