import { describe, expect, it } from 'vitest';
import { niceTicks } from './ticks';

/** The gap between each tick and the next. */
const steps = (ticks: number[]) => ticks.slice(1).map((tick, at) => tick - (ticks[at] as number));

describe('niceTicks', () => {
  it.each([
    ['the squares of 1 to 5', [1, 4, 9, 16, 25], [0, 10, 20, 30]],
    ['0 to 28', [0, 7, 14, 21, 28], [0, 10, 20, 30]],
    ['1 to 5', [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
    ['a few years', [2022, 2023, 2024], [2022, 2023, 2024]],
    ['tenths', [0.1, 0.2, 0.3], [0.1, 0.15, 0.2, 0.25, 0.3]],
    ['from below zero to thousands', [-3, 1200, 25000.5], [-10000, 0, 10000, 20000, 30000]],
    ['millions', [0, 1_450_000], [0, 500_000, 1_000_000, 1_500_000]],
    ['one value', [4], [3, 4, 5]],
  ])('counts %s in round steps', (_name, values, expected) => {
    expect(niceTicks(values)).toEqual(expected);
  });

  it('always covers the values, in steps of 1, 2 or 5 times a power of ten', () => {
    for (const values of [
      [0, 7, 14, 21, 28],
      [-0.37, 0.81],
      [13, 987],
      [0.002, 0.0071],
      [1e9, 3.3e9],
    ]) {
      const ticks = niceTicks(values);
      expect(ticks[0]).toBeLessThanOrEqual(Math.min(...values));
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(Math.max(...values));
      expect(ticks.length).toBeLessThanOrEqual(7);
      const [step] = steps(ticks);
      const mantissa = Number(
        ((step as number) / 10 ** Math.floor(Math.log10(step as number))).toPrecision(6),
      );
      expect([1, 2, 5]).toContain(mantissa);
      for (const gap of steps(ticks)) expect(gap).toBeCloseTo(step as number, 9);
    }
  });

  it('never steps by less than 1 between whole numbers', () => {
    expect(niceTicks([1, 2])).toEqual([1, 2]);
    expect(niceTicks([0.5, 1])).toEqual([0.4, 0.6, 0.8, 1]);
  });

  it('has no ticks for no values', () => {
    expect(niceTicks([])).toEqual([]);
  });
});
