import { expect, it } from 'vitest';
import type { QuantaMessage } from '../protocol';
import { withAnswer } from './answer-so-far';

const prompt: QuantaMessage = { id: 'p', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
const answer = (text: string): QuantaMessage => ({
  id: 'a',
  role: 'assistant',
  parts: [{ type: 'text', text }],
});

it('puts the answer so far after the stored messages', () => {
  expect(withAnswer([prompt], answer('Hel'))).toEqual([prompt, answer('Hel')]);
});

it('puts it in place of what its last step stored', () => {
  expect(withAnswer([prompt, answer('He')], answer('Hello'))).toEqual([prompt, answer('Hello')]);
});

it('leaves the messages as stored when no answer is on its way', () => {
  const stored = [prompt, answer('Hello')];
  expect(withAnswer(stored, undefined)).toBe(stored);
});
