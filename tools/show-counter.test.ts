import { describe, expect, it } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { demoIntents } from '.';

describe('the demo model asking for a counter', () => {
  const COUNTER = new Set(['show_counter']);

  it('finds a counter, with its start when a number is given', () => {
    expect(recognise('show me a counter', demoIntents, COUNTER)).toEqual([
      { tool: 'show_counter', args: {} },
    ]);
    expect(recognise('Counter starting at -3 please', demoIntents, COUNTER)).toEqual([
      { tool: 'show_counter', args: { start: -3 } },
    ]);
    expect(recognise('how many counters are there', demoIntents, COUNTER)).toEqual([]);
  });
});
