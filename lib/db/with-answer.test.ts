import { expect, it } from 'vitest';
import type { QuantaMessage, TurnStatus } from '../protocol';
import { withAnswer } from './with-answer';

const prompt: QuantaMessage = { id: 'p', role: 'user', parts: [{ type: 'text', text: 'Hi' }] };
const answer = (text: string, status: TurnStatus = 'streaming'): QuantaMessage => ({
  id: 'a',
  role: 'assistant',
  parts: [{ type: 'text', text }],
  metadata: { status },
});

it('puts the answer so far after the stored messages', () => {
  expect(withAnswer([prompt], answer('Hel'))).toEqual([prompt, answer('Hel')]);
});

it('puts it in place of what its last step stored', () => {
  expect(withAnswer([prompt, answer('He')], answer('Hello'))).toEqual([prompt, answer('Hello')]);
});

it('replaces its stored step wherever it is on the page, never showing it twice', () => {
  const next: QuantaMessage = { id: 'n', role: 'user', parts: [{ type: 'text', text: 'More' }] };
  expect(withAnswer([prompt, answer('He'), next], answer('Hello'))).toEqual([
    prompt,
    answer('Hello'),
    next,
  ]);
});

it('leaves the final message as stored: it is saved before the feed and the log say so', () => {
  const final = answer('Hello', 'complete');
  expect(withAnswer([prompt, final], answer('Hell'))).toEqual([prompt, final]);
});

it('leaves a page that moved past the turn as it is', () => {
  // Read after the turn ended and another was answered: the answer was stored whole by then.
  const later: QuantaMessage = { id: 'b', role: 'assistant', parts: [] };
  expect(withAnswer([prompt, later], answer('Hel'))).toEqual([prompt, later]);
});

it('leaves the messages as stored when no answer is on its way', () => {
  const stored = [prompt, answer('Hello')];
  expect(withAnswer(stored, undefined)).toBe(stored);
});
