import { expect, it } from 'vitest';
import { validate } from '@/lib/schema';
import type { WidgetData } from '@/lib/widgets';
import { actionContext, squares } from '@/tests/helpers/widgets';
import { chart } from './actions';

it('switches the kind of chart, keeping the series', async () => {
  const result = await chart.actions.kind.handle(actionContext, { kind: 'bar' }, squares);
  expect(result).toEqual({ status: 'ok', data: { ...squares, kind: 'bar' } });
  if (result?.status === 'ok') expect(validate(chart.data, result.data)).toEqual({ valid: true });
});

it('refuses a line or bar chart of data that repeats an x', async () => {
  const scattered: WidgetData<typeof chart> = {
    ...squares,
    kind: 'scatter',
    series: [
      {
        name: 'noise',
        points: [
          { x: 1, y: 1 },
          { x: 1, y: 2 },
        ],
      },
    ],
  };
  expect(await chart.actions.kind.handle(actionContext, { kind: 'line' }, scattered)).toEqual({
    status: 'error',
    reason: 'a line chart needs one y per x; this data repeats an x: keep it a scatter chart',
  });
  expect(validate(chart.actions.kind.parameters, { kind: 'pie' })).toEqual({
    valid: false,
    message: 'kind: must be one of: line, bar, scatter',
  });
});
