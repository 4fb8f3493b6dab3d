'use client';

import { ArrowDownIcon, ArrowUpIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { focusRing } from '@/components/ui/focus-ring';
import { Input } from '@/components/ui/input';
import type { WidgetData, WidgetViewProps } from '@/lib/widgets';
import { numberFormat } from '../format-number';
import type { table } from './actions';

type Table = WidgetData<typeof table>;
type Cell = Table['rows'][number][number];
type Direction = 'ascending' | 'descending';
type Sort = { column: number; direction: Direction };

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** How each column writes its numbers, decided from all of them (see numberFormat). */
function columnFormats(table: Table): ((value: number) => string)[] {
  return table.columns.map((_, at) =>
    numberFormat(
      table.rows.map((row) => row[at]).filter((cell): cell is number => typeof cell === 'number'),
    ),
  );
}

function cellText(cell: Cell, format: ((value: number) => string) | undefined): string {
  if (cell === null) return '';
  if (typeof cell === 'string') return cell;
  return format ? format(cell) : String(cell);
}

/** Ascending order of two cells of one column; empty cells are ordered by the caller. */
function compareCells(a: Exclude<Cell, null>, b: Exclude<Cell, null>): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** A filter is kept once typing pauses, not at every keystroke. */
const FILTER_SAVE_MS = 400;

export default function TableView({ data, readOnly, act }: WidgetViewProps<typeof table>) {
  // The owner's sort and filter are kept with the widget (a reload, another tab and the share
  // link show the same); a reader may sort and filter for themselves, and follows the owner.
  const [sort, setSort] = useState<Sort | undefined>(data?.view?.sort);
  const [filter, setFilter] = useState(data?.view?.filter ?? '');
  const saving = useRef<ReturnType<typeof setTimeout>>(undefined);
  const captionId = useId();
  const ownerView = JSON.stringify(data?.view ?? {});
  useEffect(() => {
    if (!readOnly) return;
    const view = JSON.parse(ownerView) as NonNullable<Table['view']>;
    setSort(view.sort);
    setFilter(view.filter ?? '');
  }, [readOnly, ownerView]);
  useEffect(() => () => clearTimeout(saving.current), []);
  const save = (view: NonNullable<Table['view']>, delay = 0) => {
    if (readOnly) return;
    clearTimeout(saving.current);
    saving.current = setTimeout(() => void act('view', view), delay);
  };
  if (data === undefined) return <p className="py-6 text-center">This table has no data.</p>;
  if (!Array.isArray(data.columns) || !Array.isArray(data.rows)) {
    throw new Error(
      `a table needs a list of columns and a list of rows, not ${typeof data.columns} and ${typeof data.rows}`,
    );
  }
  const { title, columns, rows } = data;
  const formats = columnFormats(data);

  const query = filter.trim().toLowerCase();
  const matching = rows
    .map((row, index) => ({ row, index }))
    .filter(
      ({ row }) =>
        query === '' ||
        row.some(
          (cell, at) =>
            cell !== null &&
            (cellText(cell, formats[at]).toLowerCase().includes(query) ||
              String(cell).toLowerCase().includes(query)),
        ),
    );
  const visible = sort ? sorted(matching, sort) : matching;

  const toggle = (column: number) => {
    const next: Sort =
      sort?.column === column
        ? { column, direction: sort.direction === 'ascending' ? 'descending' : 'ascending' }
        : { column, direction: 'ascending' };
    setSort(next);
    save({ sort: next, filter });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Input
          type="search"
          aria-label="Filter rows"
          placeholder="Filter rows"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
            save({ ...(sort ? { sort } : {}), filter: event.target.value }, FILTER_SAVE_MS);
          }}
          className="sm:w-64"
        />
        <p role="status" className="text-sm text-muted-foreground">
          {visible.length === rows.length
            ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`
            : `${visible.length} of ${rows.length} rows`}
        </p>
      </div>
      {/* Scrolls sideways on a phone, a region named like its table (the accessible pattern for
          a scrolling table); the header buttons take keyboard focus into it. */}
      <section aria-labelledby={captionId} className="max-w-full overflow-x-auto rounded-lg border">
        <table className="w-max min-w-full border-collapse text-sm">
          <caption id={captionId} className="px-3 pt-2 pb-1 text-left font-semibold">
            {title}
          </caption>
          <thead>
            <tr className="border-b bg-muted/50">
              {columns.map((column, index) => {
                const direction = sort?.column === index ? sort.direction : undefined;
                return (
                  <th
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns keep their place.
                    key={index}
                    scope="col"
                    aria-sort={direction}
                    className={`p-0 font-medium ${column.type === 'number' ? 'text-right' : 'text-left'}`}
                  >
                    <button
                      type="button"
                      onClick={() => toggle(index)}
                      className={cn(
                        'flex w-full items-center gap-1 px-3 py-2 whitespace-nowrap hover:bg-accent hover:text-accent-foreground',
                        focusRing,
                        'focus-visible:-outline-offset-2',
                        column.type === 'number' ? 'justify-end' : 'justify-start',
                      )}
                    >
                      {column.name}
                      <span aria-hidden="true" className="w-3.5 text-muted-foreground">
                        {direction === 'ascending' ? (
                          <ArrowUpIcon className="size-3.5" />
                        ) : direction === 'descending' ? (
                          <ArrowDownIcon className="size-3.5" />
                        ) : null}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {visible.map(({ row, index }) => (
              <tr key={index} className="border-b last:border-0 hover:bg-muted/50">
                {row.map((cell, at) => (
                  <td
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells keep their column's place.
                    key={at}
                    className={
                      columns[at]?.type === 'number'
                        ? 'px-3 py-1.5 text-right whitespace-nowrap tabular-nums'
                        : 'px-3 py-1.5 align-top'
                    }
                  >
                    <div className="max-w-80 break-words">{cellText(cell, formats[at])}</div>
                  </td>
                ))}
              </tr>
            ))}
            {visible.length === 0 && (
              <tr>
                <td
                  colSpan={columns.length}
                  className="px-3 py-6 text-center text-muted-foreground"
                >
                  {rows.length === 0 ? (
                    'This table has no rows.'
                  ) : (
                    <>
                      No rows match “{filter.trim()}”.{' '}
                      <Button
                        variant="link"
                        className="h-auto p-0"
                        onClick={() => {
                          setFilter('');
                          save(sort ? { sort } : {});
                        }}
                      >
                        Clear filter
                      </Button>
                    </>
                  )}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Rows in the order asked, ties in their given order; empty cells last either way. */
function sorted<Entry extends { row: readonly Cell[]; index: number }>(
  entries: readonly Entry[],
  { column, direction }: Sort,
): Entry[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...entries].sort((a, b) => {
    const left = a.row[column] ?? null;
    const right = b.row[column] ?? null;
    if (left === null || right === null) {
      if (left === right) return a.index - b.index;
      return left === null ? 1 : -1;
    }
    return sign * compareCells(left, right) || a.index - b.index;
  });
}
