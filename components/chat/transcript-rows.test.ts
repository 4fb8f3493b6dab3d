import { expect, it } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { handOverCache } from './transcript-rows';

const message = (id: string): QuantaMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text: id }],
});

it('gives each row the height measured for it, and virtua guesses the others at the median', () => {
  const rows = [message('u1'), message('a1'), message('u2'), 'tail' as const];
  const sizes = new Map([
    ['a1', 300],
    ['u2', 60],
    ['tail', 20],
  ]);
  expect(handOverCache(rows, sizes)).toEqual([[-1, 300, 60, 20], 60]);
});

it('matches heights to rows by key, whatever came in before or between them', () => {
  // The server rendered u2 and a2; by the hand-over an earlier page and a new prompt are in.
  const sizes = new Map([
    ['u2', 40],
    ['a2', 500],
  ]);
  const rows = ['u0', 'a0', 'u2', 'a2', 'u3'].map(message);
  expect(handOverCache(rows, sizes)).toEqual([[-1, -1, 40, 500, -1], 270]);
});

it('has no snapshot when no row was measured', () => {
  expect(handOverCache([message('u1')], new Map())).toBeUndefined();
});
