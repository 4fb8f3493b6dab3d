'use client';

import { useId } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { WidgetData, WidgetViewProps } from '@/lib/widgets';
import type { chart } from './actions';

type Chart = WidgetData<typeof chart>;

// Tailwind's 500 shades: each reads on white and on the dark container (zinc-900) alike.
const COLORS = [
  '#3b82f6',
  '#f97316',
  '#10b981',
  '#a855f7',
  '#f43f5e',
  '#eab308',
  '#06b6d4',
  '#84cc16',
];
const KINDS = new Set(['line', 'bar', 'scatter']);

// Thousands are grouped from five digits on, so that a year reads 2024, not 2,024.
const grouped = new Intl.NumberFormat('en', { maximumSignificantDigits: 15 });
const plain = new Intl.NumberFormat('en', { maximumSignificantDigits: 15, useGrouping: false });
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 });
const formatNumber = (value: number) => (Math.abs(value) >= 10_000 ? grouped : plain).format(value);
// Ticks stay short: 1.5M rather than 1,500,000.
const formatTick = (value: unknown) =>
  typeof value !== 'number'
    ? String(value)
    : Math.abs(value) >= 1_000_000
      ? compact.format(value)
      : formatNumber(value);

// The chart draws in currentColor; the tooltip and legend read these variables, set per scheme.
const SURFACE =
  'text-zinc-700 dark:text-zinc-300 ' +
  '[--chart-surface:#ffffff] [--chart-border:#d4d4d8] [--chart-text:#18181b] ' +
  'dark:[--chart-surface:#18181b] dark:[--chart-border:#52525b] dark:[--chart-text:#f4f4f5]';

export default function ChartView({ data, readOnly, pending, act }: WidgetViewProps<typeof chart>) {
  const titleId = useId();
  if (data === undefined) return <p className="py-6 text-center">This chart has no data.</p>;
  if (!KINDS.has(data.kind) || !Array.isArray(data.series)) {
    throw new Error(
      `a chart needs a kind (line, bar or scatter) and a list of series, not kind ${JSON.stringify(data.kind)} and series ${typeof data.series}`,
    );
  }
  const xName = data.xLabel || 'x';
  const yName = data.yLabel || 'y';
  return (
    <figure aria-labelledby={titleId} className="flex min-h-full flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption id={titleId} className="text-lg font-semibold">
          {data.title}
        </figcaption>
        <fieldset className="flex gap-1 text-sm" disabled={readOnly || pending}>
          <legend className="sr-only">Chart type</legend>
          {(['line', 'bar', 'scatter'] as const).map((kind) => (
            <label
              key={kind}
              className="cursor-pointer rounded-md border border-zinc-300 px-2.5 py-1 capitalize has-checked:bg-zinc-900 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-blue-500 has-disabled:cursor-default has-disabled:opacity-60 dark:border-zinc-700 dark:has-checked:bg-zinc-100 dark:has-checked:text-zinc-900"
            >
              <input
                type="radio"
                name="chart-kind"
                value={kind}
                checked={data.kind === kind}
                onChange={() => act('kind', { kind })}
                className="sr-only"
              />
              {kind}
            </label>
          ))}
        </fieldset>
      </div>
      <div
        role="img"
        aria-label={describeChart(data)}
        className={`h-[min(70dvh,40rem)] min-h-64 w-full ${SURFACE}`}
      >
        <ResponsiveContainer width="100%" height="100%">
          {drawChart(data)}
        </ResponsiveContainer>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer select-none font-medium">Data table</summary>
        <div className="mt-2 max-w-full overflow-x-auto">
          <table className="w-max min-w-full border-collapse">
            <caption className="sr-only">Data of {data.title}</caption>
            <thead>
              <tr className="border-b border-zinc-200 text-left dark:border-zinc-700">
                <th scope="col" className="px-3 py-1.5 font-medium">
                  Series
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">
                  {xName}
                </th>
                <th scope="col" className="px-3 py-1.5 text-right font-medium">
                  {yName}
                </th>
              </tr>
            </thead>
            <tbody>
              {data.series.flatMap((series, index) =>
                series.points.map((point, at) => (
                  <tr
                    // biome-ignore lint/suspicious/noArrayIndexKey: points have no identity but their place.
                    key={`${index}-${at}`}
                    className="border-b border-zinc-100 last:border-0 dark:border-zinc-800"
                  >
                    <th scope="row" className="px-3 py-1 text-left font-normal">
                      {series.name}
                    </th>
                    <td className="px-3 py-1 text-right tabular-nums">{formatNumber(point.x)}</td>
                    <td className="px-3 py-1 text-right tabular-nums">{formatNumber(point.y)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** The chart in words: what a screen reader announces for the picture. */
function describeChart({ kind, title, xLabel, yLabel, series }: Chart): string {
  const kindName = `${kind[0]?.toUpperCase()}${kind.slice(1)} chart`;
  const axes = [xLabel && `x axis: ${xLabel}`, yLabel && `y axis: ${yLabel}`].filter(Boolean);
  const each = series.map(({ name, points }) => {
    const count = points.length === 1 ? '1 point' : `${points.length} points`;
    const xs = points.map((point) => point.x);
    const ys = points.map((point) => point.y);
    return `${name}, ${count}, x ${spread(xs)}, y ${spread(ys)}`;
  });
  return [
    `${kindName}: ${title}.`,
    axes.length > 0 ? `${axes.join('; ')}.` : '',
    `${series.length === 1 ? '1 series' : `${series.length} series`}: ${each.join('; ')}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

function spread(values: readonly number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? formatNumber(min) : `from ${formatNumber(min)} to ${formatNumber(max)}`;
}

type Row = { x: number } & Record<`s${number}`, number | undefined>;

/** Line and bar charts share one row per x value, a column per series (sorted by x). */
function rowsByX(series: Chart['series']): Row[] {
  const rows = new Map<number, Row>();
  series.forEach(({ points }, index) => {
    for (const { x, y } of points) {
      const row = rows.get(x) ?? { x };
      row[`s${index}`] = y;
      rows.set(x, row);
    }
  });
  return [...rows.values()].sort((a, b) => a.x - b.x);
}

function drawChart(data: Chart) {
  const { kind, xLabel, yLabel, series } = data;
  const margin = { top: 8, right: 24, bottom: xLabel ? 24 : 8, left: yLabel ? 16 : 0 };
  const axis = {
    stroke: 'currentColor',
    tick: { fill: 'currentColor' },
    tickFormatter: formatTick,
  };
  const xAxisLabel = xLabel
    ? { value: xLabel, position: 'insideBottom' as const, offset: -16, fill: 'currentColor' }
    : undefined;
  const yAxisLabel = yLabel
    ? { value: yLabel, angle: -90, position: 'insideLeft' as const, fill: 'currentColor' }
    : undefined;
  const names = series.map((one) => one.name);
  const grid = <CartesianGrid stroke="currentColor" strokeOpacity={0.15} strokeDasharray="3 3" />;
  const legend = (
    <Legend
      position="top"
      // In the order given, not alphabetical (recharts' default).
      itemSorter={(item) => names.indexOf(String(item.value))}
      formatter={(value) => <span style={{ color: 'var(--chart-text)' }}>{value}</span>}
    />
  );
  // Scatter points have no one x to title the tooltip with: it lists x and y instead.
  const tooltip = (cursor: object, titled: boolean) => (
    <Tooltip
      cursor={cursor}
      contentStyle={{
        backgroundColor: 'var(--chart-surface)',
        borderWidth: 1,
        borderStyle: 'solid',
        borderColor: 'var(--chart-border)',
        borderRadius: 8,
        color: 'var(--chart-text)',
      }}
      labelStyle={{ color: 'var(--chart-text)' }}
      itemStyle={{ color: 'var(--chart-text)' }}
      labelFormatter={(label) =>
        titled
          ? `${xLabel || 'x'}: ${typeof label === 'number' ? formatNumber(label) : String(label ?? '')}`
          : null
      }
      formatter={(value) => (typeof value === 'number' ? formatNumber(value) : String(value))}
    />
  );
  // accessibilityLayer off: the figure is one image described in words, with a data table.
  const common = { margin, accessibilityLayer: false };

  if (kind === 'scatter') {
    return (
      <ScatterChart {...common}>
        {grid}
        <XAxis {...axis} type="number" dataKey="x" name={xLabel || 'x'} label={xAxisLabel} />
        <YAxis {...axis} type="number" dataKey="y" name={yLabel || 'y'} label={yAxisLabel} />
        {tooltip({ stroke: 'currentColor', strokeOpacity: 0.4, strokeDasharray: '3 3' }, false)}
        {legend}
        {series.map((one, index) => (
          <Scatter
            // biome-ignore lint/suspicious/noArrayIndexKey: series are drawn in their given order.
            key={index}
            name={one.name}
            data={one.points}
            fill={COLORS[index % COLORS.length]}
            isAnimationActive={false}
          />
        ))}
      </ScatterChart>
    );
  }
  const rows = rowsByX(series);
  if (kind === 'bar') {
    return (
      <BarChart {...common} data={rows}>
        {grid}
        <XAxis {...axis} type="category" dataKey="x" label={xAxisLabel} />
        <YAxis {...axis} label={yAxisLabel} />
        {tooltip({ fill: 'currentColor', fillOpacity: 0.1 }, true)}
        {legend}
        {series.map((one, index) => (
          <Bar
            // biome-ignore lint/suspicious/noArrayIndexKey: series are drawn in their given order.
            key={index}
            dataKey={`s${index}`}
            name={one.name}
            fill={COLORS[index % COLORS.length]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    );
  }
  return (
    <LineChart {...common} data={rows}>
      {grid}
      <XAxis
        {...axis}
        type="number"
        dataKey="x"
        domain={['dataMin', 'dataMax']}
        label={xAxisLabel}
      />
      <YAxis {...axis} label={yAxisLabel} />
      {tooltip({ stroke: 'currentColor', strokeOpacity: 0.4 }, true)}
      {legend}
      {series.map((one, index) => (
        <Line
          // biome-ignore lint/suspicious/noArrayIndexKey: series are drawn in their given order.
          key={index}
          type="linear"
          dataKey={`s${index}`}
          name={one.name}
          stroke={COLORS[index % COLORS.length]}
          fill={COLORS[index % COLORS.length]}
          strokeWidth={2}
          dot={one.points.length <= 60}
          connectNulls
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}
