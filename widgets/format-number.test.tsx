// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { viewProps } from '@/tests/helpers/widgets';
import ChartView from './chart/view';
import { numberFormat } from './format-number';
import TableView from './table/view';

afterEach(cleanup);

const written = (values: number[], options?: { short?: boolean }) =>
  values.map(numberFormat(values, options));

describe('numberFormat', () => {
  it('groups every number of a column once any reaches five digits, none before', () => {
    expect(written([1200, 10000, 25000.5, -3])).toEqual(['1,200', '10,000', '25,000.5', '-3']);
    expect(written([2022, 2023, 2024])).toEqual(['2022', '2023', '2024']);
    expect(written([-12000, 5])).toEqual(['-12,000', '5']);
  });

  it('keeps every digit of the data', () => {
    expect(written([0.1 + 0.2, 1 / 3, 123456.789])).toEqual([
      '0.3',
      '0.333333333333333',
      '123,456.789',
    ]);
  });

  it('writes short axis ticks once any reaches a million, and plain ones before', () => {
    expect(written([0, 500_000, 1_000_000, 1_500_000], { short: true })).toEqual([
      '0',
      '500K',
      '1M',
      '1.5M',
    ]);
    expect(written([0, 10_000, 20_000], { short: true })).toEqual(['0', '10,000', '20,000']);
  });

  it('writes a number alone as its own column', () => {
    expect(numberFormat([])(1234)).toBe('1234');
  });
});

it('writes a column of numbers alike in the chart’s data table and in a table', () => {
  const ys = [1200, 10000, 25000.5, -3];
  render(
    <ChartView
      {...viewProps}
      data={{
        kind: 'bar',
        title: 'Chart',
        series: [{ name: 'y', points: ys.map((y, x) => ({ x, y })) }],
      }}
    />,
  );
  const chartColumn = within(screen.getByRole('table', { name: 'Data of Chart' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.lastElementChild?.textContent);
  cleanup();
  render(
    <TableView
      {...viewProps}
      data={{ title: 'Table', columns: [{ name: 'y', type: 'number' }], rows: ys.map((y) => [y]) }}
    />,
  );
  const tableColumn = within(screen.getByRole('table', { name: 'Table' }))
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
  expect(chartColumn).toEqual(['1,200', '10,000', '25,000.5', '-3']);
  expect(tableColumn).toEqual(chartColumn);
});
