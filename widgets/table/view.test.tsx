// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WidgetData } from '@/lib/widgets';
import { viewProps } from '@/tests/helpers/widgets';
import type { table } from './actions';
import TableView from './view';

afterEach(cleanup);

const planets: WidgetData<typeof table> = {
  title: 'Planets',
  columns: [
    { name: 'Planet', type: 'string' },
    { name: 'Type', type: 'string' },
    { name: 'Moons', type: 'number' },
  ],
  rows: [
    ['Mars', 'Rocky', 2],
    ['earth', 'Rocky', 1],
    ['Jupiter', 'Gas giant', 95],
    ['Venus', 'Rocky', 0],
    ['Planet 10', null, null],
    ['Saturn', 'Gas giant', 10000],
  ],
};

function show(data = planets, readOnly = false) {
  render(<TableView {...viewProps} data={data} readOnly={readOnly} />);
  return screen.getByRole('table', { name: data.title });
}

/** The first cell of each body row, in the order shown. */
function firstColumn(grid: HTMLElement): string[] {
  const [, ...bodyRows] = within(grid).getAllByRole('row');
  return bodyRows.map((row) => within(row).getAllByRole('cell')[0]?.textContent ?? '');
}

const header = (name: string) => screen.getByRole('columnheader', { name });

describe('table view', () => {
  it('shows every row in the given order, numbers formatted, with a count', () => {
    const grid = show();
    expect(firstColumn(grid)).toEqual(['Mars', 'earth', 'Jupiter', 'Venus', 'Planet 10', 'Saturn']);
    expect(within(grid).getByText('10,000')).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('6 rows');
    for (const name of ['Planet', 'Type', 'Moons']) {
      expect(header(name).hasAttribute('aria-sort')).toBe(false);
    }
  });

  it('sorts by a column on a click, ascending then descending, empty cells last', () => {
    const grid = show();
    fireEvent.click(screen.getByRole('button', { name: 'Moons' }));
    expect(header('Moons').getAttribute('aria-sort')).toBe('ascending');
    expect(firstColumn(grid)).toEqual(['Venus', 'earth', 'Mars', 'Jupiter', 'Saturn', 'Planet 10']);

    fireEvent.click(screen.getByRole('button', { name: 'Moons' }));
    expect(header('Moons').getAttribute('aria-sort')).toBe('descending');
    expect(firstColumn(grid)).toEqual(['Saturn', 'Jupiter', 'Mars', 'earth', 'Venus', 'Planet 10']);
  });

  it('sorts text without regard to case and numbers within it in order, then moves the sort to another column', () => {
    const grid = show({
      ...planets,
      rows: [['b10'], ['B2'], ['a']].map(([name]) => [name ?? '', 'x', 1]),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Planet' }));
    expect(firstColumn(grid)).toEqual(['a', 'B2', 'b10']);
    fireEvent.click(screen.getByRole('button', { name: 'Type' }));
    expect(header('Type').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Planet').hasAttribute('aria-sort')).toBe(false);
    // Ties keep their given order.
    expect(firstColumn(grid)).toEqual(['b10', 'B2', 'a']);
  });

  it('filters rows by any cell, ignoring case, and says how many match', () => {
    const grid = show();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter rows' }), {
      target: { value: ' GAS ' },
    });
    expect(firstColumn(grid)).toEqual(['Jupiter', 'Saturn']);
    expect(screen.getByRole('status').textContent).toBe('2 of 6 rows');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter rows' }), {
      target: { value: '10000' },
    });
    expect(firstColumn(grid)).toEqual(['Saturn']);
  });

  it('keeps the sort while filtering', () => {
    const grid = show();
    fireEvent.click(screen.getByRole('button', { name: 'Moons' }));
    fireEvent.click(screen.getByRole('button', { name: 'Moons' }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter rows' }), {
      target: { value: 'rocky' },
    });
    expect(firstColumn(grid)).toEqual(['Mars', 'earth', 'Venus']);
  });

  it('says when no row matches, and clears the filter on request', () => {
    const grid = show();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter rows' }), {
      target: { value: 'pluto' },
    });
    expect(within(grid).getByText(/No rows match “pluto”/)).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('0 of 6 rows');

    fireEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(firstColumn(grid)).toHaveLength(6);
    expect((screen.getByRole('searchbox', { name: 'Filter rows' }) as HTMLInputElement).value).toBe(
      '',
    );
  });

  it('says when the table has no rows at all', () => {
    const grid = show({ ...planets, rows: [] });
    expect(within(grid).getByText('This table has no rows.')).toBeInTheDocument();
    expect(screen.getByRole('status').textContent).toBe('0 rows');
  });

  it('hides nothing when read-only: sorting and filtering still work', () => {
    const grid = show(planets, true);
    fireEvent.click(screen.getByRole('button', { name: 'Planet' }));
    expect(firstColumn(grid)).toEqual(['earth', 'Jupiter', 'Mars', 'Planet 10', 'Saturn', 'Venus']);
    expect(screen.getByRole('searchbox', { name: 'Filter rows' })).toBeInTheDocument();
  });

  it('sits in a scrolling region of its own, named like the table, rather than squeezing', () => {
    const grid = show();
    expect(screen.getByRole('region', { name: 'Planets' })).toContainElement(grid);
  });

  it('explains a missing table and refuses a malformed one', () => {
    render(<TableView {...viewProps} data={undefined} />);
    expect(screen.getByText('This table has no data.')).toBeInTheDocument();
    cleanup();
    const malformed = { title: 'Bad', columns: 'Planet' } as unknown as WidgetData<typeof table>;
    expect(() => render(<TableView {...viewProps} data={malformed} />)).toThrow(
      /a table needs a list of columns and a list of rows, not string and undefined/,
    );
  });
});
