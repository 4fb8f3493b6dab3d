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
import { numberFormat } from '../format-number';
import type { chart } from './actions';
import { niceTicks } from './ticks';

type Chart = WidgetData<typeof chart>;

const KINDS = ['line', 'bar', 'scatter'] as const;
/** The theme's chart colours (app/globals.css), one per series, each light and dark. */
const COLORS = 5;

/**
 * How series `index` is drawn: the theme's colours in turn; past the fifth, a colour comes back
 * dashed (a line), as diamonds (scatter) or paler (a bar), so no two series look alike.
 */
function seriesStyle(index: number) {
  const again = index >= COLORS;
  return {
    color: `var(--chart-${(index % COLORS) + 1})`,
    dash: again ? '6 4' : undefined,
    shape: again ? ('diamond' as const) : ('circle' as const),
    fillOpacity: again ? 0.55 : 1,
  };
}

/** How the chart writes its data: one format per axis, for its data table, tooltip and words. */
type Formats = { x: (value: number) => string; y: (value: number) => string };

function formatsOf(series: Chart['series']): Formats {
  const points = series.flatMap((one) => one.points);
  return {
    x: numberFormat(points.map((point) => point.x)),
    y: numberFormat(points.map((point) => point.y)),
  };
}

export default function ChartView({ data, readOnly, pending, act }: WidgetViewProps<typeof chart>) {
  const titleId = useId();
  if (data === undefined) return <p className="py-6 text-center">This chart has no data.</p>;
  if (!(KINDS as readonly string[]).includes(data.kind) || !Array.isArray(data.series)) {
    throw new Error(
      `a chart needs a kind (line, bar or scatter) and a list of series, not kind ${JSON.stringify(data.kind)} and series ${typeof data.series}`,
    );
  }
  const xName = data.xLabel || 'x';
  const yName = data.yLabel || 'y';
  const formats = formatsOf(data.series);
  return (
    <figure aria-labelledby={titleId} className="flex min-h-full flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <figcaption id={titleId} className="text-lg font-semibold">
          {data.title}
        </figcaption>
        {/* Not disabled while an action runs: a change queues behind it, and focus stays. */}
        <fieldset
          className="inline-flex gap-1 rounded-lg bg-muted p-1 text-sm"
          disabled={readOnly}
          aria-busy={pending}
        >
          <legend className="sr-only">Chart type</legend>
          {KINDS.map((kind) => (
            <label
              key={kind}
              className="cursor-pointer rounded-md px-2.5 py-1 font-medium capitalize text-muted-foreground hover:text-foreground has-checked:bg-background has-checked:text-foreground has-checked:shadow-sm has-focus-visible:outline-2 has-focus-visible:outline-ring has-disabled:cursor-default has-disabled:hover:text-muted-foreground"
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
        aria-label={describeChart(data, formats)}
        className="h-[min(70dvh,40rem)] min-h-64 w-full text-muted-foreground"
      >
        <ResponsiveContainer width="100%" height="100%">
          {drawChart(data, formats)}
        </ResponsiveContainer>
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer select-none font-medium">Data table</summary>
        <div className="mt-2 max-w-full overflow-x-auto">
          <table className="w-max min-w-full border-collapse">
            <caption className="sr-only">Data of {data.title}</caption>
            <thead>
              <tr className="border-b text-left text-muted-foreground">
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
                    className="border-b last:border-0"
                  >
                    <th scope="row" className="px-3 py-1 text-left font-normal">
                      {series.name}
                    </th>
                    <td className="px-3 py-1 text-right tabular-nums">{formats.x(point.x)}</td>
                    <td className="px-3 py-1 text-right tabular-nums">{formats.y(point.y)}</td>
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
function describeChart({ kind, title, xLabel, yLabel, series }: Chart, formats: Formats): string {
  const kindName = `${kind[0]?.toUpperCase()}${kind.slice(1)} chart`;
  const axes = [xLabel && `x axis: ${xLabel}`, yLabel && `y axis: ${yLabel}`].filter(Boolean);
  const each = series.map(({ name, points }) => {
    const count = points.length === 1 ? '1 point' : `${points.length} points`;
    const xs = points.map((point) => point.x);
    const ys = points.map((point) => point.y);
    return `${name}, ${count}, x ${spread(xs, formats.x)}, y ${spread(ys, formats.y)}`;
  });
  return [
    `${kindName}: ${title}.`,
    axes.length > 0 ? `${axes.join('; ')}.` : '',
    `${series.length === 1 ? '1 series' : `${series.length} series`}: ${each.join('; ')}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

function spread(values: readonly number[], format: (value: number) => string): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? format(min) : `from ${format(min)} to ${format(max)}`;
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

/** A numeric axis on round ticks, its domain from the first to the last. */
function numericAxis(values: readonly number[]) {
  const ticks = niceTicks(values);
  return {
    type: 'number' as const,
    ticks,
    domain: [ticks[0] ?? 0, ticks.at(-1) ?? 0],
    tickFormatter: numberFormat(ticks, { short: true }),
  };
}

function drawChart(data: Chart, formats: Formats) {
  const { kind, xLabel, yLabel, series } = data;
  const margin = { top: 8, right: 24, bottom: xLabel ? 24 : 8, left: yLabel ? 16 : 0 };
  const axis = { stroke: 'currentColor', tick: { fill: 'currentColor' } };
  const xAxisLabel = xLabel
    ? { value: xLabel, position: 'insideBottom' as const, offset: -16, fill: 'currentColor' }
    : undefined;
  const yAxisLabel = yLabel
    ? { value: yLabel, angle: -90, position: 'insideLeft' as const, fill: 'currentColor' }
    : undefined;
  const xs = series.flatMap((one) => one.points.map((point) => point.x));
  const ys = series.flatMap((one) => one.points.map((point) => point.y));
  // Bars grow from zero, so their axis shows it.
  const yAxis = numericAxis(kind === 'bar' ? [0, ...ys] : ys);
  const names = series.map((one) => one.name);
  const grid = <CartesianGrid stroke="currentColor" strokeOpacity={0.15} strokeDasharray="3 3" />;
  // One series needs no legend: the title and the axis say what it is.
  const legend = series.length > 1 && (
    <Legend
      position="top"
      // In the order given, not alphabetical (recharts' default).
      itemSorter={(item) => names.indexOf(String(item.value))}
      formatter={(value) => <span style={{ color: 'var(--foreground)' }}>{value}</span>}
    />
  );
  // Scatter points have no one x to title the tooltip with: it lists x and y instead.
  const tooltip = (cursor: object, titled: boolean) => (
    <Tooltip
      cursor={cursor}
      contentStyle={{
        backgroundColor: 'var(--popover)',
        borderWidth: 1,
        borderStyle: 'solid',
        borderColor: 'var(--border)',
        borderRadius: 8,
        color: 'var(--popover-foreground)',
      }}
      labelStyle={{ color: 'var(--popover-foreground)' }}
      itemStyle={{ color: 'var(--popover-foreground)' }}
      labelFormatter={(label) =>
        titled
          ? `${xLabel || 'x'}: ${typeof label === 'number' ? formats.x(label) : String(label ?? '')}`
          : null
      }
      // A scatter point lists its x as an item of its own; every other item is a y.
      formatter={(value, _name, item) =>
        typeof value !== 'number'
          ? String(value)
          : item.dataKey === 'x'
            ? formats.x(value)
            : formats.y(value)
      }
    />
  );
  // accessibilityLayer off: the figure is one image described in words, with a data table.
  const common = { margin, accessibilityLayer: false };

  if (kind === 'scatter') {
    return (
      <ScatterChart {...common}>
        {grid}
        <XAxis {...axis} {...numericAxis(xs)} dataKey="x" name={xLabel || 'x'} label={xAxisLabel} />
        <YAxis {...axis} {...yAxis} dataKey="y" name={yLabel || 'y'} label={yAxisLabel} />
        {tooltip({ stroke: 'currentColor', strokeOpacity: 0.4, strokeDasharray: '3 3' }, false)}
        {legend}
        {series.map((one, index) => {
          const style = seriesStyle(index);
          return (
            <Scatter
              // biome-ignore lint/suspicious/noArrayIndexKey: series are drawn in their given order.
              key={index}
              name={one.name}
              data={one.points}
              fill={style.color}
              shape={style.shape}
              isAnimationActive={false}
            />
          );
        })}
      </ScatterChart>
    );
  }
  const rows = rowsByX(series);
  if (kind === 'bar') {
    return (
      <BarChart {...common} data={rows}>
        {grid}
        <XAxis
          {...axis}
          type="category"
          dataKey="x"
          tickFormatter={numberFormat(xs, { short: true })}
          label={xAxisLabel}
        />
        <YAxis {...axis} {...yAxis} label={yAxisLabel} />
        {tooltip({ fill: 'currentColor', fillOpacity: 0.1 }, true)}
        {legend}
        {series.map((one, index) => {
          const style = seriesStyle(index);
          return (
            <Bar
              // biome-ignore lint/suspicious/noArrayIndexKey: series are drawn in their given order.
              key={index}
              dataKey={`s${index}`}
              name={one.name}
              fill={style.color}
              fillOpacity={style.fillOpacity}
              isAnimationActive={false}
            />
          );
        })}
      </BarChart>
    );
  }
  return (
    <LineChart {...common} data={rows}>
      {grid}
      <XAxis {...axis} {...numericAxis(xs)} dataKey="x" label={xAxisLabel} />
      <YAxis {...axis} {...yAxis} label={yAxisLabel} />
      {tooltip({ stroke: 'currentColor', strokeOpacity: 0.4 }, true)}
      {legend}
      {series.map((one, index) => {
        const style = seriesStyle(index);
        return (
          <Line
            // biome-ignore lint/suspicious/noArrayIndexKey: series are drawn in their given order.
            key={index}
            type="linear"
            dataKey={`s${index}`}
            name={one.name}
            stroke={style.color}
            fill={style.color}
            strokeDasharray={style.dash}
            strokeWidth={2}
            dot={one.points.length <= 60}
            connectNulls
            isAnimationActive={false}
          />
        );
      })}
    </LineChart>
  );
}
