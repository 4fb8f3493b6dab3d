/** Steps an axis counts in, times a power of ten: 10, 20, 50, never 7. */
const NICE_STEPS = [1, 2, 5, 10];

/**
 * Round ticks for an axis that shows `values`: about `count` of them, a step of 1, 2 or 5 times
 * a power of ten apart, from a multiple of the step at or below the least value to one at or
 * above the greatest (0, 10, 20, 30 for 1 to 25). Whole numbers (years, counts) never get a
 * fractional step. The first and last ticks are the axis's domain.
 */
export function niceTicks(values: readonly number[], count = 5): number[] {
  if (values.length === 0) return [];
  let min = Math.min(...values);
  let max = Math.max(...values);
  // One value: a tick on either side of it.
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const rough = (max - min) / (count - 1);
  const power = 10 ** Math.floor(Math.log10(rough));
  // A hair of tolerance: 0.3 - 0.1 is a little under 0.2 in floating point.
  const nice = NICE_STEPS.find((step) => step * power >= rough * (1 - 1e-9)) ?? 10;
  const step = Math.max(nice * power, values.every(Number.isInteger) ? 1 : 0);
  // Ticks are written from whole multiples of the step, rounded to its decimals: 0.15, not
  // 0.15000000000000002.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const first = Math.floor(min / step);
  const last = Math.ceil(max / step);
  return Array.from({ length: last - first + 1 }, (_, at) =>
    Number(((first + at) * step).toFixed(decimals)),
  );
}
