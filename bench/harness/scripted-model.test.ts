import { describe, expect, it } from 'vitest';
import { answerTo, askIn, promptFor } from './scripted-model';

describe('the scripted model’s prompts', () => {
  it('are found again in a request’s message content, as JSON', () => {
    const ask = { tokens: 40, paceMs: 10 };
    const content = JSON.stringify([{ type: 'text', text: promptFor(ask) }]);
    expect(askIn(content)).toEqual(ask);
    expect(askIn('Summarize the conversation so far.')).toBeUndefined();
  });

  it('are answered with that many tokens', () => {
    expect(answerTo({ tokens: 3, paceMs: 0 })).toBe('word word word ');
  });
});
