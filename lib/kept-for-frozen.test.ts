import { describe, expect, it } from 'vitest';
import { keptForFrozen } from './kept-for-frozen';

describe('keptForFrozen', () => {
  const counted = () => {
    const made: object[] = [];
    const make = keptForFrozen((value: { n: number }) => {
      made.push(value);
      return value.n * 2;
    });
    return { made, make };
  };

  it('makes once for a frozen value, and keeps what it made', () => {
    const { made, make } = counted();
    const value = Object.freeze({ n: 2 });
    expect([make(value), make(value)]).toEqual([4, 4]);
    expect(made).toEqual([value]);
  });

  it('makes anew for a value that may still change', () => {
    const { made, make } = counted();
    const value = { n: 2 };
    expect(make(value)).toBe(4);
    value.n = 3;
    expect(make(value)).toBe(6);
    expect(made).toHaveLength(2);
  });

  it('keeps what it made per value, not per contents', () => {
    const { made, make } = counted();
    make(Object.freeze({ n: 1 }));
    make(Object.freeze({ n: 1 }));
    expect(made).toHaveLength(2);
  });
});
