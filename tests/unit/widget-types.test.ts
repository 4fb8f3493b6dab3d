import { expect, it } from 'vitest';
import { defineWidget, type WidgetData, type WidgetViewProps } from '@/lib/widgets';
import { accept, withActions } from '@/lib/widgets/actions';
import type { counter } from '@/widgets/counter/actions';

// These checks run in the typecheck (`tsc`): each @ts-expect-error fails the build if the line
// below it stops being a type error, so the widget's data stays typed end to end.

it('types a widget’s data from its schema: in the tool, in the view and in its actions', () => {
  const fromTool = { count: 3 } satisfies WidgetData<typeof counter>;
  // @ts-expect-error a counter's count is a number
  const wrongTool = { count: 'three' } satisfies WidgetData<typeof counter>;

  const view = (props: WidgetViewProps<WidgetData<typeof counter>>) => {
    const count: number | undefined = props.data?.count;
    // @ts-expect-error the view reads a number, not a string
    const wrongView: string | undefined = props.data?.count;
    return [count, wrongView];
  };

  const schema = defineWidget({
    id: 'typed',
    data: {
      type: 'object',
      properties: { count: { type: 'integer' } },
      required: ['count'],
      additionalProperties: false,
    },
  });
  const typed = withActions(schema, (action) => ({
    add: action({
      parameters: {
        type: 'object',
        properties: { by: { type: 'integer' } },
        required: ['by'],
        additionalProperties: false,
      },
      handle: (_ctx, { by }, { count }) => accept({ count: count + by }),
    }),
    wrong: action({
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      // @ts-expect-error an action must give back data of the widget's shape
      handle: (_ctx, _args, { count }) => accept({ count: String(count) }),
    }),
  }));

  expect([fromTool, wrongTool, typeof view, typed.id]).toEqual([
    { count: 3 },
    { count: 'three' },
    'function',
    'typed',
  ]);
});
