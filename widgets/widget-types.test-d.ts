import { describe, expectTypeOf, it } from 'vitest';
import type { WidgetData, WidgetViewProps } from '@/lib/widgets';
import { accept, withActions } from '@/lib/widgets/actions';
import type { counter } from './counter/actions';
import { counterSchema } from './counter/schema';
import type { tasks } from './tasks/actions';

// Run by `vitest --typecheck` (tsc): each @ts-expect-error fails the run if the line below it
// stops being a type error, so a widget stays typed end to end.

type Count = WidgetData<typeof counter>;

describe('a widget’s data, typed from its schema', () => {
  it('is what its tools give and its view reads', () => {
    expectTypeOf<Count>().toEqualTypeOf<{ count: number }>();
    expectTypeOf<WidgetViewProps<typeof counter>['data']>().toEqualTypeOf<Count | undefined>();
    // @ts-expect-error a counter's count is a number
    ({ count: 'three' }) satisfies Count;
  });

  it('is what its actions are given and must give back', () => {
    withActions(counterSchema, (action) => ({
      add: action({
        parameters: {
          type: 'object',
          properties: { by: { type: 'integer' } },
          required: ['by'],
          additionalProperties: false,
        },
        handle: (_ctx, args, data) => {
          expectTypeOf(args).toEqualTypeOf<{ by: number }>();
          expectTypeOf(data).toEqualTypeOf<Count>();
          return accept({ count: data.count + args.by });
        },
      }),
      wrong: action({
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        // @ts-expect-error an action must give back data of the widget's shape
        handle: (_ctx, _args, { count }) => accept({ count: String(count) }),
      }),
    }));
  });
});

describe('a view’s act, typed from its widget’s actions', () => {
  const { act } = {} as WidgetViewProps<typeof counter>;
  const board = {} as WidgetViewProps<typeof tasks>;

  it('takes an action by name, with its arguments', () => {
    act('increment', { by: 2 });
    act('increment');
    act('reset');
    board.act('move', { id: 't1', column: 'done' });
    expectTypeOf(act('reset')).toEqualTypeOf<Promise<boolean>>();
  });

  it('refuses an action the widget does not have', () => {
    // @ts-expect-error the counter has no such action
    act('incremnt');
    // @ts-expect-error another widget's action
    act('move', { id: 't1', column: 'done' });
  });

  it('refuses arguments of the wrong type, unknown ones, or required ones left out', () => {
    // @ts-expect-error `by` is a whole number
    act('increment', { by: 'two' });
    // @ts-expect-error increment takes only `by`
    act('increment', { step: 2 });
    // @ts-expect-error a column is todo, doing or done
    board.act('move', { id: 't1', column: 'later' });
    // @ts-expect-error a new task needs its title
    board.act('add');
  });

  it('gives a widget without actions nothing to act on', () => {
    const { act: none } = {} as WidgetViewProps<typeof counterSchema>;
    // @ts-expect-error a schema alone has no actions
    none('increment');
  });
});
