import { describe, expect, it } from 'vitest';
import { formatDifference, formatNumber, formatRatio, formatValue, renderTable } from './report';

describe('formatting', () => {
  it('keeps three significant digits at most', () => {
    expect(formatNumber(1350.4)).toBe('1350');
    expect(formatNumber(24.56)).toBe('24.6');
    expect(formatNumber(4.567)).toBe('4.57');
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('gives a layout shift score three decimals, so a small move shows', () => {
    expect(formatValue(0.0542, 'CLS')).toBe('0.054 CLS');
    expect(formatValue(0.0001, 'CLS')).toBe('0.000 CLS');
    expect(formatValue(0.0047, 'CLS')).toBe('0.005 CLS');
  });

  it('counts requests in whole numbers', () => {
    expect(formatValue(7, 'requests')).toBe('7 requests');
    expect(formatDifference(25, 7, 'requests')).toBe('+18 requests');
  });

  it('gives a ratio to the baseline, or a dash for a zero one', () => {
    expect(formatRatio(45, 18)).toBe('2.50×');
    expect(formatRatio(3, 0)).toBe('—');
  });

  it('signs the difference', () => {
    expect(formatDifference(45.2, 11.1, 'ms')).toBe('+34.1 ms');
    expect(formatDifference(100, 150, 'MiB')).toBe('−50.0 MiB');
  });
});

describe('renderTable', () => {
  it('lines up one row per figure, with its baseline, ratio, difference and goal', () => {
    const table = renderTable([
      {
        measure: 'first text p50',
        unit: 'ms',
        measured: { name: 'Quanta', value: 45 },
        baseline: { name: 'direct', value: 11 },
        goal: { text: '< +5 ms', met: false },
      },
      { measure: 'idle RSS', unit: 'MiB', measured: { name: 'Quanta', value: 250 } },
    ]);
    expect(table.split('\n')).toEqual([
      '| measure        | measured       | baseline       | ratio | difference | goal       |',
      '| -------------- | -------------- | -------------- | ----- | ---------- | ---------- |',
      '| first text p50 | Quanta 45.0 ms | direct 11.0 ms | 4.09× | +34.0 ms   | < +5 ms NO |',
      '| idle RSS       | Quanta 250 MiB | —              | —     | —          |            |',
    ]);
  });
});
