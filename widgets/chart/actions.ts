import { accept, reject, withActions } from '@/lib/widgets/actions';
import { chartSchema } from './schema';

/** The chart as the server runs it: its schema and the reader's choice of kind. */
export const chart = withActions(chartSchema, (action) => ({
  // The reader may show the same series as another kind of chart; the choice is kept.
  kind: action({
    parameters: {
      type: 'object',
      properties: { kind: { enum: ['line', 'bar', 'scatter'] } },
      required: ['kind'],
      additionalProperties: false,
    },
    handle: (_ctx, { kind }, data) =>
      kind !== 'scatter' &&
      data.series.some(({ points }) => new Set(points.map(({ x }) => x)).size < points.length)
        ? reject(
            `a ${kind} chart needs one y per x; this data repeats an x: keep it a scatter chart`,
          )
        : accept({ ...data, kind }),
  }),
}));
