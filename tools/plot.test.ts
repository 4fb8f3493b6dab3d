import { describe, expect, it } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import { validate } from '@/lib/schema';
import { runTool, validateArgs } from '@/lib/tools';
import { memoryServices } from '@/tests/helpers/tool-services';
import { squares } from '@/tests/helpers/widgets';
import { chart } from '@/widgets/chart/actions';
import { MAX_POINTS, MAX_SERIES } from '@/widgets/chart/schema';
import { demoIntents, toolSet } from '.';
import { plot } from './plot';

const context = { agentId: 'a1', sessionId: 's1', services: memoryServices() };
const run = (args: unknown) =>
  runTool(toolSet, { toolCallId: 'c1', toolName: 'plot', args }, context);

describe('plot', () => {
  it('is shipped, paired with the full-screen chart widget', () => {
    expect(toolSet.get('plot')).toBe(plot);
    expect(plot.widget).toBe(chart);
    expect(chart.container).toBe('fullscreen');
  });

  it('tells the model what it plotted and gives the user a button with the chart', async () => {
    const outcome = await run(squares);
    expect(outcome).toEqual({
      isError: false,
      modelText:
        'Plotted a line chart "Squares" (x: n, y: n²) with 1 series:\n' +
        '- "n²": 5 points, x from 1 to 5, y from 1 to 25\n' +
        'The user can open it from the button "Open chart: Squares".',
      ui: { kind: 'widget', label: 'Open chart: Squares', widget: 'chart', data: squares },
    });
    if (outcome.isError || outcome.ui?.kind !== 'widget') throw new Error('a widget button');
    expect(validate(chart.data, outcome.ui.data)).toEqual({ valid: true });
  });

  it('summarises several series, each with its count and range', async () => {
    const outcome = await run({
      kind: 'scatter',
      title: 'Heights',
      series: [
        { name: 'a', points: [{ x: 2, y: -1.5 }] },
        {
          name: 'b',
          points: [
            { x: 0, y: 3 },
            { x: 0, y: 7 },
          ],
        },
      ],
    });
    expect(outcome.modelText).toBe(
      'Plotted a scatter chart "Heights" with 2 series:\n' +
        '- "a": 1 point, x = 2, y = -1.5\n' +
        '- "b": 2 points, x = 0, y from 3 to 7\n' +
        'The user can open it from the button "Open chart: Heights".',
    );
  });

  it('refuses invalid arguments with a message naming each path, before running', async () => {
    const cases: [unknown, string][] = [
      [{ ...squares, kind: 'pie' }, 'kind: must be one of: line, bar, scatter'],
      [{ kind: 'bar', series: squares.series }, 'title: is required'],
      [{ ...squares, title: '' }, 'title: must NOT have fewer than 1 characters'],
      [{ ...squares, series: [] }, 'series: must NOT have fewer than 1 items'],
      [
        {
          ...squares,
          series: Array.from({ length: MAX_SERIES + 1 }, (_, i) => ({
            name: `s${i}`,
            points: [{ x: 0, y: 0 }],
          })),
        },
        `series: must NOT have more than ${MAX_SERIES} items`,
      ],
      [
        {
          ...squares,
          series: [
            {
              name: 'big',
              points: Array.from({ length: MAX_POINTS + 1 }, (_, x) => ({ x, y: x })),
            },
          ],
        },
        `series[0].points: must NOT have more than ${MAX_POINTS} items`,
      ],
      [
        {
          ...squares,
          series: [{ name: 'n', points: [{ x: Number.POSITIVE_INFINITY, y: Number.NaN }] }],
        },
        'series[0].points[0].x: must be number; series[0].points[0].y: must be number',
      ],
      [
        { ...squares, series: [{ name: 'n', points: [{ x: '1', y: 1 }] }] },
        'series[0].points[0].x: must be number',
      ],
      [{ ...squares, colour: 'red' }, 'colour: is not allowed'],
    ];
    for (const [args, message] of cases) {
      expect(await run(args), message).toEqual({ isError: true, modelText: message });
    }
  });

  it('refuses two series of one name', async () => {
    const outcome = await run({
      ...squares,
      series: [squares.series[0], squares.series[0]],
    });
    expect(outcome).toEqual({
      isError: true,
      modelText:
        'series[1].name: "n²" is already the name of another series; give each series a distinct name',
    });
  });

  it('refuses two y for one x in a line or bar chart, but not in a scatter chart', async () => {
    const series = [
      {
        name: 'twice',
        points: [
          { x: 1, y: 1 },
          { x: 1, y: 2 },
        ],
      },
    ];
    expect(await run({ kind: 'bar', title: 'T', series })).toEqual({
      isError: true,
      modelText:
        'series[0].points[1].x: 1 appears twice in series "twice"; a bar chart needs one y per x (use a scatter chart for repeated x)',
    });
    expect((await run({ kind: 'line', title: 'T', series })).modelText).toContain(
      'a line chart needs one y per x',
    );
    expect((await run({ kind: 'scatter', title: 'T', series })).isError).toBe(false);
  });
});

describe('the demo model asking for a plot', () => {
  const PLOT = new Set(['plot']);
  const argsFor = (text: string) => {
    const calls = recognise(text, demoIntents, PLOT);
    expect(calls, text).toHaveLength(1);
    const [call] = calls;
    if (!call) throw new Error(`no plot for ${text}`);
    expect(call.tool).toBe('plot');
    expect(validateArgs(plot, call.args), text).toEqual({ valid: true });
    return call.args;
  };

  it('plots the squares of a range', async () => {
    const args = argsFor('plot the squares of 1 to 5');
    expect(args).toEqual({
      kind: 'line',
      title: 'Squares of 1 to 5',
      xLabel: 'n',
      yLabel: 'n²',
      series: squares.series,
    });
    expect((await run(args)).isError).toBe(false);
  });

  it('plots the numbers a message lists, as bars or points when asked', () => {
    expect(argsFor('chart 3, 1, 4, 1, 5')).toEqual({
      kind: 'line',
      title: 'Values',
      xLabel: 'Position',
      yLabel: 'Value',
      series: [
        {
          name: 'Value',
          points: [3, 1, 4, 1, 5].map((y, index) => ({ x: index + 1, y })),
        },
      ],
    });
    expect(argsFor('bar chart of the cubes up to 4')).toMatchObject({
      kind: 'bar',
      title: 'Cubes of 1 to 4',
      series: [{ name: 'n³', points: [1, 8, 27, 64].map((y, i) => ({ x: i + 1, y })) }],
    });
    expect(argsFor('a scatter plot of 2.5, -1')).toMatchObject({
      kind: 'scatter',
      series: [
        {
          points: [
            { x: 1, y: 2.5 },
            { x: 2, y: -1 },
          ],
        },
      ],
    });
  });

  it('always sends arguments the tool accepts', async () => {
    for (const text of [
      'graph the powers of two from 0 to 10',
      'plot the square roots of -5 to 5',
      'plot x^2 from -3 to 3',
      'plot 1 to 1000',
      'chart the squares',
      'plot 7',
    ]) {
      expect((await run(argsFor(text))).isError, text).toBe(false);
    }
    const long = argsFor('plot 1 to 1000') as { series: { points: unknown[] }[]; title: string };
    expect(long.title).toBe('Numbers of 1 to 50');
    expect(long.series[0]?.points).toHaveLength(50);
  });

  it('does not plot without numbers it can use', () => {
    for (const text of ['plot my sales', 'plot 1 to 99999999999', 'a plot twist', 'show a table']) {
      expect(recognise(text, demoIntents, PLOT), text).toEqual([]);
    }
  });
});
