import { modelMessageSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import type { QuantaMessage } from '../protocol';
import { toModelMessages } from './model-messages';

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
      { type: 'reasoning', text: 'Use the tools.', state: 'done' },
      {
        type: 'tool-calculate',
        toolCallId: 'c1',
        state: 'output-available',
        input: { expression: '2 + 3' },
        output: { isError: false, modelText: '5', durationMs: 1 },
      },
      {
        type: 'tool-show_chart',
        toolCallId: 'c2',
        state: 'output-available',
        input: { points: [1, 2, { x: null }] },
        output: {
          isError: false,
          modelText: 'chart shown',
          ui: { kind: 'widget', label: 'Chart', widget: 'chart', data: { points: [1, 2] } },
          durationMs: 3,
        },
      },
      {
        type: 'tool-fetch_page',
        toolCallId: 'c3',
        state: 'output-available',
        input: { url: 'http://127.0.0.1/' },
        output: { isError: true, modelText: 'refused: a private address', durationMs: 0 },
      },
      {
        type: 'tool-explode',
        toolCallId: 'c4',
        state: 'output-error',
        input: {},
        errorText: 'kaboom',
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
    for (const message of messages) {
      const checked = modelMessageSchema.safeParse(message);
      expect(checked.error).toBeUndefined();
    }
  });

  it('gives the model only the text of each tool result, never its widget or note', async () => {
    const sent = JSON.stringify(await toModelMessages(transcript));
    expect(sent).toContain('chart shown');
    expect(sent).toContain('refused: a private address');
    expect(sent).not.toContain('"widget"');
    expect(sent).not.toContain('Chart');
    expect(sent).not.toContain('durationMs');
  });
});
