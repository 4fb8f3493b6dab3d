/** The middle and the tail of a set of measurements, and how many there were. */
export type Summary = { n: number; p50: number; p99: number };

/**
 * The `p`th percentile (0–100) of `values` by the nearest-rank method: a value that was
 * measured, never an interpolation between two. NaN when there are none.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function summarize(values: readonly number[]): Summary {
  return { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99) };
}
