import { describe, expect, it } from 'vitest';
import { percentile, summarize } from './stats';

describe('percentile', () => {
  it('is a measured value, by nearest rank, whatever the order', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
  });

  it('is the slowest but one of 200 at p99', () => {
    const values = Array.from({ length: 200 }, (_, index) => index + 1);
    expect(percentile(values, 99)).toBe(198);
  });

  it('is NaN of nothing', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('summarize', () => {
  it('gives the count, the median and the 99th percentile', () => {
    expect(summarize([10, 30, 20])).toEqual({ n: 3, p50: 20, p99: 30 });
  });
});
