import { accept, withActions } from '@/lib/widgets/actions';
import { counterSchema } from './schema';

const noArgs = { type: 'object', properties: {}, additionalProperties: false } as const;

/** The counter as the server runs it: its schema and what the reader's buttons do. */
export const counter = withActions(counterSchema, (action) => ({
  increment: action({
    parameters: {
      type: 'object',
      properties: { by: { type: 'integer', minimum: 1, maximum: 1000 } },
      additionalProperties: false,
    },
    handle: (_ctx, { by = 1 }, { count }) => accept({ count: count + by }),
  }),
  decrement: action({
    parameters: noArgs,
    handle: (_ctx, _args, { count }) => accept({ count: count - 1 }),
  }),
  reset: action({ parameters: noArgs, handle: () => accept({ count: 0 }) }),
}));
