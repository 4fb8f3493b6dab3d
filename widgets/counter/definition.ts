import { accept, defineWidget } from '@/lib/widgets';

const noArgs = { type: 'object', properties: {}, additionalProperties: false } as const;

/** A number the reader can count with: opened by `show_counter`. */
export const counter = defineWidget({
  id: 'counter',
  container: 'modal',
  data: {
    type: 'object',
    properties: { count: { type: 'integer' } },
    required: ['count'],
    additionalProperties: false,
  },
  actions: (action) => ({
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
  }),
});
