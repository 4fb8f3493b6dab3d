import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, err, ok, widget } from '@/lib/tools';
import type { WidgetData } from '@/lib/widgets';
import { chart } from '@/widgets/chart/actions';
import { demoValues } from './demo-values';

type Chart = WidgetData<typeof chart>;
type Series = Chart['series'][number];

export const plot = defineTool({
  name: 'plot',
  description:
    'Draws a line, bar or scatter chart of one or more numeric series for the user, who opens ' +
    'it full screen from a button. Give a title, optional axis labels, and each series as a ' +
    'name with points {x, y}. Use it when the user asks to plot, chart or graph numbers, or ' +
    'when a trend is easier to see than to read. You get back a summary of what was drawn.',
  // The arguments are the chart the widget draws, exactly.
  parameters: chart.data,
  widget: chart,
  execute(_agentId, _toolCallId, spec) {
    const problem = specProblem(spec);
    if (problem) return err(problem);
    const { kind, title, xLabel, yLabel, series } = spec;
    const axes = [xLabel && `x: ${xLabel}`, yLabel && `y: ${yLabel}`].filter(Boolean).join(', ');
    const count = series.length === 1 ? '1 series' : `${series.length} series`;
    const lines = [
      `Plotted a ${kind} chart ${JSON.stringify(title)}${axes ? ` (${axes})` : ''} with ${count}:`,
      ...series.map((one) => `- ${describeSeries(one)}`),
      `The user can open it from the button "Open chart: ${title}".`,
    ];
    return ok(lines.join('\n'), widget(`Open chart: ${title}`, chart.id, spec satisfies Chart));
  },
});

/** What the schema cannot say: distinct series names, and one y per x in a line or bar chart. */
function specProblem({ kind, series }: Chart): string | undefined {
  const names = new Set<string>();
  for (const [index, { name, points }] of series.entries()) {
    if (names.has(name)) {
      return `series[${index}].name: ${JSON.stringify(name)} is already the name of another series; give each series a distinct name`;
    }
    names.add(name);
    if (kind === 'scatter') continue;
    const xs = new Set<number>();
    for (const [at, { x }] of points.entries()) {
      if (xs.has(x)) {
        return `series[${index}].points[${at}].x: ${x} appears twice in series ${JSON.stringify(name)}; a ${kind} chart needs one y per x (use a scatter chart for repeated x)`;
      }
      xs.add(x);
    }
  }
  return undefined;
}

function describeSeries({ name, points }: Series): string {
  const xs = points.map((point) => point.x);
  const ys = points.map((point) => point.y);
  const count = points.length === 1 ? '1 point' : `${points.length} points`;
  return `${JSON.stringify(name)}: ${count}, x ${range(xs)}, y ${range(ys)}`;
}

function range(values: readonly number[]): string {
  const min = Math.min(...values);
  const max = Math.max(...values);
  return min === max ? `= ${min}` : `from ${min} to ${max}`;
}

/** The demo model's way to `plot`: "plot the squares of 1 to 5", "bar chart of 3, 1, 4". */
export const plotIntent: Intent = {
  tool: plot.name,
  example: 'plot the squares of 1 to 5',
  lead: 'I’ll draw that for you.',
  answer: ({ args }) =>
    `Here’s “${String(args.title)}” as a ${String(args.kind)} chart — open it to see it full screen.`,
  match(clause) {
    if (!/\b(?:plot|chart|graph)\b/i.test(clause)) return undefined;
    const values = demoValues(clause);
    if (!values) return undefined;
    const kind = /\bbars?\b/i.test(clause)
      ? 'bar'
      : /\bscatter\b/i.test(clause)
        ? 'scatter'
        : 'line';
    return {
      kind,
      title: values.title,
      xLabel: values.xName,
      yLabel: values.yName,
      series: [{ name: values.yName, points: values.points.map(([x, y]) => ({ x, y })) }],
    };
  },
};
