import { defineWidget } from '@/lib/widgets';

/** At most this many series in one chart: more lines than a reader can tell apart. */
export const MAX_SERIES = 8;
/** At most this many points in one series. */
export const MAX_POINTS = 500;

/** A line, bar or scatter chart of a few numeric series: opened by `plot`, full screen. */
export const chartSchema = defineWidget({
  id: 'chart',
  title: 'Chart',
  container: 'fullscreen',
  data: {
    type: 'object',
    properties: {
      kind: {
        enum: ['line', 'bar', 'scatter'],
        description:
          'line: a trend over x; bar: one bar per x value and series; scatter: unconnected points.',
      },
      title: { type: 'string', minLength: 1, maxLength: 120, description: 'What the chart shows.' },
      xLabel: { type: 'string', maxLength: 60, description: 'Label of the horizontal axis.' },
      yLabel: { type: 'string', maxLength: 60, description: 'Label of the vertical axis.' },
      series: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_SERIES,
        description: 'The data: one entry per line, bar group member or point set.',
        items: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              minLength: 1,
              maxLength: 60,
              description: 'Shown in the legend.',
            },
            points: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_POINTS,
              items: {
                type: 'object',
                properties: { x: { type: 'number' }, y: { type: 'number' } },
                required: ['x', 'y'],
                additionalProperties: false,
              },
            },
          },
          required: ['name', 'points'],
          additionalProperties: false,
        },
      },
    },
    required: ['kind', 'title', 'series'],
    additionalProperties: false,
  },
});
