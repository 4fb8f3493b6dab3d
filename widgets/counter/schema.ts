import { defineWidget } from '@/lib/widgets';

/** A number the reader can count with: opened by `show_counter`. */
export const counterSchema = defineWidget({
  id: 'counter',
  title: 'Counter',
  container: 'modal',
  data: {
    type: 'object',
    properties: { count: { type: 'integer' } },
    required: ['count'],
    additionalProperties: false,
  },
});
