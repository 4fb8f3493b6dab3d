// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WidgetData } from '@/lib/widgets';
import { viewProps } from '@/tests/helpers/widgets';
import { findWidget } from '../registry';
import type { chart } from './actions';
import ChartView from './view';

type Chart = WidgetData<typeof chart>;

// happy-dom lays nothing out: give the chart's container a size so that recharts draws.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const growth: Chart = {
  kind: 'line',
  title: 'Growth',
  xLabel: 'Year',
  yLabel: 'Users',
  series: [
    {
      name: 'Web',
      points: [
        { x: 2022, y: 1200 },
        { x: 2023, y: 10000 },
        { x: 2024, y: 25000.5 },
      ],
    },
    { name: 'App', points: [{ x: 2024, y: -3 }] },
  ],
};

const SUMMARY =
  'Line chart: Growth. x axis: Year; y axis: Users. 2 series: ' +
  'Web, 3 points, x from 2022 to 2024, y from 1,200 to 25,000.5; App, 1 point, x 2024, y -3.';

function show(data: Chart | undefined, readOnly = false) {
  return render(<ChartView {...viewProps} data={data} readOnly={readOnly} />);
}

describe('chart view', () => {
  it('shows its title and describes the chart in words as one image', () => {
    show(growth);
    const figure = screen.getByRole('figure', { name: 'Growth' });
    expect(within(figure).getByText('Growth')).toBeInTheDocument();
    expect(within(figure).getByRole('img').getAttribute('aria-label')).toBe(SUMMARY);
    expect(screen.getByRole('img', { name: SUMMARY })).toBeInTheDocument();
  });

  it('describes a chart without axis labels, of one kind or another', () => {
    show({
      kind: 'bar',
      title: 'Votes',
      series: [{ name: 'Yes', points: [{ x: 1, y: 4 }] }],
    });
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Bar chart: Votes. 1 series: Yes, 1 point, x 1, y 4.',
    );
  });

  it('has a collapsible data table of every point, headed by the axis labels', () => {
    show(growth);
    const details = screen.getByText('Data table').closest('details');
    expect(details).toBeInTheDocument();
    expect(details?.open).toBe(false);
    const table = screen.getByRole('table', { name: 'Data of Growth' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Series', 'Year', 'Users']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Web', '2022', '1,200'],
      ['Web', '2023', '10,000'],
      ['Web', '2024', '25,000.5'],
      ['App', '2024', '-3'],
    ]);
  });

  it('hides nothing when read-only', () => {
    show(growth, true);
    expect(screen.getByRole('img', { name: SUMMARY })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Data of Growth' })).toBeInTheDocument();
  });

  it.each([
    ['line', '.recharts-line'],
    ['bar', '.recharts-bar'],
    ['scatter', '.recharts-scatter'],
  ] as const)(
    'draws a %s chart with its axis labels and a legend in the given order',
    async (kind, layer) => {
      const { container } = show({ ...growth, kind });
      const image = screen.getByRole('img', {
        name: SUMMARY.replace('Line', kind[0]?.toUpperCase() + kind.slice(1)),
      });
      await vi.waitFor(() =>
        expect(image.querySelector('svg.recharts-surface')).toBeInTheDocument(),
      );
      const legend = [...image.querySelectorAll('.recharts-legend-item-text')].map(
        (item) => item.textContent,
      );
      expect(legend).toEqual(['Web', 'App']);
      expect(within(image).getByText('Year')).toBeInTheDocument();
      expect(within(image).getByText('Users')).toBeInTheDocument();
      expect(container.querySelectorAll(layer)).toHaveLength(2);
      // Axes and grid draw in the text colour, so they follow the light or dark scheme.
      expect(image.querySelector('.recharts-cartesian-grid line')?.getAttribute('stroke')).toBe(
        'currentColor',
      );
    },
  );

  it('draws one series in the first chart colour, without a legend, on round ticks', async () => {
    const squares: Chart = {
      kind: 'line',
      title: 'Squares',
      series: [{ name: 'n²', points: [1, 2, 3, 4, 5].map((n) => ({ x: n, y: n * n })) }],
    };
    const { container } = show(squares);
    await vi.waitFor(() =>
      expect(container.querySelector('svg.recharts-surface')).toBeInTheDocument(),
    );
    expect(container.querySelector('.recharts-legend-wrapper')).not.toBeInTheDocument();
    expect(container.querySelector('.recharts-line-curve')?.getAttribute('stroke')).toBe(
      'var(--chart-1)',
    );
    const ticks = (axis: string) =>
      [
        ...container.querySelectorAll(
          `.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`,
        ),
      ].map((tick) => tick.textContent);
    expect(ticks('yAxis')).toEqual(['0', '10', '20', '30']);
    expect(ticks('xAxis')).toEqual(['1', '2', '3', '4', '5']);
  });

  it('gives each of several series its own colour, then its own dash', async () => {
    const many: Chart = {
      kind: 'line',
      title: 'Many',
      series: Array.from({ length: 6 }, (_, index) => ({
        name: `S${index + 1}`,
        points: [
          { x: 1, y: index },
          { x: 2, y: index + 1 },
        ],
      })),
    };
    const { container } = show(many);
    await vi.waitFor(() =>
      expect(container.querySelectorAll('.recharts-line-curve')).toHaveLength(6),
    );
    const curves = [...container.querySelectorAll('.recharts-line-curve')];
    expect(curves.map((curve) => curve.getAttribute('stroke'))).toEqual([
      'var(--chart-1)',
      'var(--chart-2)',
      'var(--chart-3)',
      'var(--chart-4)',
      'var(--chart-5)',
      'var(--chart-1)',
    ]);
    expect(curves[0]?.getAttribute('stroke-dasharray')).toBeNull();
    expect(curves[5]?.getAttribute('stroke-dasharray')).toBe('6 4');
  });

  it('explains a missing chart and refuses a malformed one', () => {
    show(undefined);
    expect(screen.getByText('This chart has no data.')).toBeInTheDocument();
    cleanup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const malformed = { kind: 'pie', title: 'Bad', series: [] } as unknown as Chart;
    expect(() => show(malformed)).toThrow(
      /a chart needs a kind \(line, bar or scatter\) and a list of series, not kind "pie"/,
    );
  });

  it('opens from the registry, painted from the data', async () => {
    const entry = findWidget('chart');
    if (!entry) throw new Error('chart is registered');
    expect(entry.schema.container).toBe('fullscreen');
    render(
      <Suspense fallback="loading">
        <entry.View {...viewProps} data={growth} />
      </Suspense>,
    );
    expect(await screen.findByRole('figure', { name: 'Growth' })).toBeInTheDocument();
  });
});
