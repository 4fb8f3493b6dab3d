import { describe, expect, it } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { validateArgs } from '@/lib/tools';
import { demoIntents } from '.';
import { calculate, MAX_EXPRESSION } from './calculate';

describe('the demo model asking for a calculation', () => {
  const CALCULATE = new Set(['calculate']);
  const find = (text: string) => recognise(text, demoIntents, CALCULATE);

  it('finds a calculation in the usual phrasings', () => {
    for (const [text, expression] of [
      ['calculate 12 * (3 + 4)', '12 * (3 + 4)'],
      ['What is 2^10?', '2^10'],
      ["what's 15% of 80", '15% of 80'],
      ['please compute sqrt(16) =', 'sqrt(16)'],
      ['evaluate 5 cm to inch', '5 cm to inch'],
    ] as const) {
      expect(find(text), text).toEqual([{ tool: 'calculate', args: { expression } }]);
      expect(validateArgs(calculate, { expression })).toEqual({ valid: true });
    }
  });

  it('does not calculate without a number or with characters outside arithmetic', () => {
    expect(find('what is love')).toEqual([]);
    expect(find('calculate 2 & 3')).toEqual([]);
    expect(find('calculate $5 + 3')).toEqual([]);
  });

  it('does not take a question with a number for a sum, nor an expression too long to send', () => {
    expect(find('what is the capital of France in 2024')).toEqual([]);
    expect(find(`calculate ${'1+'.repeat(MAX_EXPRESSION / 2)}1`)).toEqual([]);
    expect(find(`calculate ${'1+'.repeat(MAX_EXPRESSION / 2 - 1)}11`)).toHaveLength(1);
    expect(find('What’s 6 * 7?')).toEqual([{ tool: 'calculate', args: { expression: '6 * 7' } }]);
  });
});
