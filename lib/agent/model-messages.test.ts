import { modelMessageSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../deep-freeze';
import type { QuantaMessage, ToolOutcome } from '../protocol';
import { toModelMessages } from './model-messages';

/** A finished call of `tool` as it is stored: its outcome, and how long it took. */
const called = (tool: string, toolCallId: string, input: object, outcome: ToolOutcome) => ({
  type: `tool-${tool}`,
  toolCallId,
  state: 'output-available',
  input,
  output: { ...outcome, durationMs: 1 },
});

// runTurn gives streamText the earlier messages unchecked (see its prepareStep): what
// toModelMessages makes of any stored transcript must be what the SDK's own schema accepts.
const transcript: QuantaMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Add 2 and 3, then show a chart.' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'data-summary', id: 'summary', data: { status: 'done' } },
      { type: 'step-start' },
      {
        type: 'reasoning',
        text: 'Use the tools.',
        state: 'done',
        // A provider's signature on its reasoning, sent back with it.
        providerMetadata: { anthropic: { signature: 'sig' } },
      },
      called('calculate', 'c1', { expression: '2 + 3' }, { isError: false, modelText: '5' }),
      called(
        'show_chart',
        'c2',
        { points: [1, 2, { x: null }] },
        {
          isError: false,
          modelText: 'chart shown',
          ui: { kind: 'widget', label: 'Chart', widget: 'chart', data: { points: [1, 2] } },
        },
      ),
      called(
        'fetch_page',
        'c3',
        { url: 'http://127.0.0.1/' },
        { isError: true, modelText: 'refused' },
      ),
      {
        type: 'tool-explode',
        toolCallId: 'c4',
        state: 'output-error',
        input: {},
        errorText: 'kaboom',
      },
      // A call whose arguments were over the cap, stored with a note in their place.
      called(
        'save_note',
        'c6',
        { omitted: '70000 bytes of arguments, over the 64 KiB limit, were not kept.' },
        { isError: true, modelText: 'The arguments were too long.' },
      ),
      // A call of a tool the tool set does not have.
      {
        type: 'dynamic-tool',
        toolName: 'missing',
        toolCallId: 'c7',
        state: 'output-error',
        input: { q: 1 },
        errorText: 'Model tried to call unavailable tool "missing".',
      },
      // A call a stop cut short: it has no result, and is left out.
      { type: 'tool-slow', toolCallId: 'c5', state: 'input-available', input: { ms: 10_000 } },
      { type: 'step-start' },
      { type: 'text', text: '2 + 3 = **5**, and the chart is open.', state: 'done' },
    ],
    metadata: { model: 'demo:offline', status: 'complete' },
  },
  // An answer stopped before it said anything: left out.
  {
    id: 'a2',
    role: 'assistant',
    parts: [],
    metadata: { model: 'demo:offline', status: 'stopped' },
  },
  { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks!' }] },
] as QuantaMessage[];

describe('toModelMessages', () => {
  it('makes of a stored transcript messages the SDK would have accepted as a prompt', async () => {
    const messages = await toModelMessages(transcript);
    expect(messages.map(({ role }) => role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    // Every call that has a result reaches the model, the cut-short one does not.
    const results = messages[2]?.role === 'tool' ? messages[2].content : [];
    expect(results.map((part) => 'toolCallId' in part && part.toolCallId)).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
      'c6',
      'c7',
    ]);
    for (const message of messages) {
      const checked = modelMessageSchema.safeParse(message);
      expect(checked.error).toBeUndefined();
    }
  });

  it('converts a frozen message once, to what it converts an unfrozen copy to', async () => {
    // As the history cache hands them, turn after turn: frozen to their last part.
    const stored = deepFreeze(structuredClone(transcript));
    const first = await toModelMessages(stored);
    expect(first).toEqual(await toModelMessages(transcript));
    const again = await toModelMessages(stored);
    expect(again).toHaveLength(first.length);
    again.forEach((message, index) => {
      expect(message).toBe(first[index]);
    });
    // Kept for every later turn: nothing may change it.
    const tool = first[2];
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool?.content[0])).toBe(true);
  });

  it('converts a message that may still change anew each time', async () => {
    const message = structuredClone(transcript.at(-1)) as QuantaMessage;
    await toModelMessages([message]);
    message.parts = [{ type: 'text', text: 'Changed my mind.' }];
    expect(await toModelMessages([message])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Changed my mind.' }] },
    ]);
  });
});
