// The bench's table: one row per figure, each against the baseline measured in the same run
// (the scripted model read directly, or the bare route), as a ratio and a difference.

/** CLS: Chromium's layout-shift score, which has no unit. Errors and requests are counts. */
export type Unit = 'ms' | 'MiB' | 'kB' | 'tokens' | 'errors' | 'requests' | 'CLS';

/** A value and whose it is: "Quanta", "direct", "bare route", "2 instances"… */
export type Figure = { name: string; value: number };

export type Row = {
  measure: string;
  unit: Unit;
  measured: Figure;
  baseline?: Figure;
  /** What issue 14 asks of this figure, and whether this run meets it. */
  goal?: { text: string; met: boolean };
};

/** 3 significant digits at most, as a run-to-run spread of a few percent warrants. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toFixed(digits);
}

export function formatValue(value: number, unit: Unit): string {
  if (unit === 'errors') return String(value);
  if (unit === 'requests') return `${value} requests`;
  // Chromium calls a score under 0.1 good; its third digit tells a row's move from none.
  if (unit === 'CLS') return `${value.toFixed(3)} CLS`;
  return `${formatNumber(value)} ${unit}`;
}

/** "2.41×", or "—" when there is no baseline or it is zero. */
export function formatRatio(measured: number, baseline: number): string {
  if (baseline === 0 || !Number.isFinite(measured / baseline)) return '—';
  return `${(measured / baseline).toFixed(2)}×`;
}

/** "+34.1 ms", "−2.00 MiB". */
export function formatDifference(measured: number, baseline: number, unit: Unit): string {
  const difference = measured - baseline;
  const sign = difference < 0 ? '−' : '+';
  return `${sign}${formatValue(Math.abs(difference), unit)}`;
}

const HEADER = ['measure', 'measured', 'baseline', 'ratio', 'difference', 'goal'];

/** The rows as a Markdown table, its columns padded to line up in a terminal too. */
export function renderTable(rows: readonly Row[]): string {
  const cells = rows.map(({ measure, unit, measured, baseline, goal }) => [
    measure,
    `${measured.name} ${formatValue(measured.value, unit)}`,
    baseline ? `${baseline.name} ${formatValue(baseline.value, unit)}` : '—',
    baseline ? formatRatio(measured.value, baseline.value) : '—',
    baseline ? formatDifference(measured.value, baseline.value, unit) : '—',
    goal ? `${goal.text} ${goal.met ? 'yes' : 'NO'}` : '',
  ]);
  const widths = HEADER.map((title, column) =>
    Math.max(title.length, ...cells.map((row) => (row[column] as string).length)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] as number)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(HEADER), rule, ...cells.map(line)].join('\n');
}
