import { describe, expect, it } from 'vitest';
import type { QuantaMessage } from '../protocol';
import { inputBytes, withCappedInput } from './tool-input-cap';

type Part = QuantaMessage['parts'][number];

describe('withCappedInput', () => {
  it('keeps a call whose arguments fit, and any part that is not a call', () => {
    const call: Part = {
      type: 'tool-save_note',
      toolCallId: 'c1',
      state: 'input-available',
      input: { text: 'é' },
    };
    // {"text":"é"} is 13 bytes: é takes two.
    expect(inputBytes(call.input)).toBe(13);
    expect(withCappedInput(call, 13)).toBe(call);
    const text: Part = { type: 'text', text: 'x'.repeat(100) };
    expect(withCappedInput(text, 10)).toBe(text);
  });

  it('replaces arguments over the cap with a note, whatever state the call is in', () => {
    const call: Part = {
      type: 'tool-save_note',
      toolCallId: 'c1',
      state: 'output-available',
      input: { text: 'x'.repeat(100) },
      output: { isError: true, modelText: 'too long', durationMs: 0 },
    };
    expect(withCappedInput(call, 64)).toEqual({
      ...call,
      input: { omitted: '111 bytes of arguments, over the 64 bytes limit, were not kept.' },
    });
  });

  it('counts (as stored, a JSON string) and drops the raw text of arguments that did not parse', () => {
    const call = {
      type: 'dynamic-tool',
      toolName: 'save_note',
      toolCallId: 'c1',
      state: 'output-error',
      input: undefined,
      rawInput: `{"text": "${'x'.repeat(100)}`,
      errorText: 'Invalid input',
    } as Part;
    expect(withCappedInput(call, 64 * 1024)).toBe(call);
    const capped = withCappedInput(call, 64);
    expect(capped).toMatchObject({
      state: 'output-error',
      input: { omitted: '115 bytes of arguments, over the 64 bytes limit, were not kept.' },
    });
    expect(capped).not.toHaveProperty('rawInput');
  });
});
