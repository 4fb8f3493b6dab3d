// One way to write numbers for every widget (the chart's axes, tooltip and data table, the
// table's columns), decided per column: a column never mixes two formats.

/** From five digits on, a column's numbers are grouped: 2024 stays a year, 25,000 reads. */
const GROUP_FROM = 10_000;
/** From seven digits on, axis ticks are short: 1.5M rather than 1,500,000. */
const SHORTEN_FROM = 1_000_000;

/**
 * How to write each number of one column, axis or series, decided from all of them: all
 * grouped (1,200 · 25,000.5) when any reaches five digits, none otherwise (2022 · 2024), so a
 * column never shows 1200 beside 10,000. `short` (axis ticks): all in compact notation (500K ·
 * 1.5M) when any reaches seven digits.
 */
export function numberFormat(
  values: readonly number[],
  { short = false }: { short?: boolean } = {},
): (value: number) => string {
  const largest = Math.max(0, ...values.map(Math.abs));
  const format =
    short && largest >= SHORTEN_FROM
      ? new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 })
      : new Intl.NumberFormat('en', {
          maximumSignificantDigits: 15,
          useGrouping: largest >= GROUP_FROM,
        });
  return (value) => format.format(value);
}
