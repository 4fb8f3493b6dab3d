import type { WidgetData } from '@/lib/widgets';
import type { ActionContext } from '@/lib/widgets/actions';
import type { chart } from '@/widgets/chart/actions';
import type { table } from '@/widgets/table/actions';

/** Who acts, in a test that runs an action's `handle` on its own. */
export const actionContext: ActionContext = { sessionId: 's', toolCallId: 'c', ownerId: 'o' };

/** What a view is given besides its data, in a test that does not look at its actions. */
export const viewProps = {
  readOnly: false,
  pending: false,
  act: async () => true,
  sendMessage: () => {},
};

/** A line chart, as `plot` is given it and the chart widget keeps it. */
export const squares: WidgetData<typeof chart> = {
  kind: 'line',
  title: 'Squares',
  xLabel: 'n',
  yLabel: 'n²',
  series: [
    {
      name: 'n²',
      points: [1, 2, 3, 4, 5].map((n) => ({ x: n, y: n * n })),
    },
  ],
};

/** A table with an empty cell, as `show_table` is given it and the table widget keeps it. */
export const moons: WidgetData<typeof table> = {
  title: 'Moons',
  columns: [
    { name: 'Planet', type: 'string' },
    { name: 'Moons', type: 'number' },
  ],
  rows: [
    ['Earth', 1],
    ['Mars', 2],
    ['Venus', null],
  ],
};
