import { describe, expect, it } from 'vitest';
import type { QuantaMessage } from './messages';
import { isStaticToolPart, isToolPart, toolNameOf } from './tool-parts';

type Part = QuantaMessage['parts'][number];

const known = {
  type: 'tool-save_note',
  toolCallId: 'c1',
  state: 'input-available',
  input: { text: 'milk' },
} as Part;
const unknown = {
  type: 'dynamic-tool',
  toolName: 'missing',
  toolCallId: 'c2',
  state: 'output-error',
  input: {},
  errorText: 'no such tool',
} as Part;
const words: Part = { type: 'text', text: 'tool-like words' };
const summary: Part = { type: 'data-summary', id: 'summary', data: { status: 'done' } };

describe('tool parts', () => {
  it('tells tool calls, of known tools and unknown ones, from other parts', () => {
    expect([known, unknown, words, summary].map(isToolPart)).toEqual([true, true, false, false]);
    expect([known, unknown, words, summary].map(isStaticToolPart)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('names the tool a call is of, whether the tool set has it or not', () => {
    expect(isToolPart(known) && toolNameOf(known)).toBe('save_note');
    expect(isToolPart(unknown) && toolNameOf(unknown)).toBe('missing');
  });
});
