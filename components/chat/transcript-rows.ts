import type { CacheSnapshot } from 'virtua';
import type { QuantaMessage } from '@/lib/protocol';

/** A row of the transcript: a message, or the turn's status line under the last one. */
export type Row = QuantaMessage | 'tail';

/** A row's key in the list: its message's id, or the turn's status line. */
export function rowKey(row: Row): string {
  return row === 'tail' ? 'tail' : row.id;
}

/**
 * virtua's sizes of `rows` as the page hydrated: those the server rendered at their height in
 * `sizes`, the others unknown, guessed at the median. The snapshot is virtua's own format, which
 * it warns is not meant to be built by hand: the version is pinned, and the frame test of opening
 * a big session fails should the format change.
 */
export function handOverCache(rows: Row[], sizes: Map<string, number>): CacheSnapshot | undefined {
  const guess = median([...sizes.values()]);
  if (guess === undefined) return undefined;
  return [rows.map((row) => sizes.get(rowKey(row)) ?? -1), guess];
}

/** The middle of `values` (of the two middle ones, their mean); undefined for none. */
function median(values: number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = values.toSorted((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? sorted[Math.floor(middle)]
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
