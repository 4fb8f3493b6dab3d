import { expect, it } from 'vitest';
import { validate } from '@/lib/schema';
import type { WidgetData } from '@/lib/widgets';
import { table } from './actions';

const ctx = { sessionId: 's', toolCallId: 'c', ownerId: 'o' };
const data: WidgetData<typeof table> = {
  title: 'Planets',
  columns: [
    { name: 'Planet', type: 'string' },
    { name: 'Moons', type: 'number' },
  ],
  rows: [
    ['Earth', 1],
    ['Mars', 2],
  ],
};

it('keeps the sort and filter with the table, valid against its schema', async () => {
  const view = { sort: { column: 1, direction: 'descending' }, filter: 'ar' } as const;
  const result = await table.actions.view.handle(ctx, view, data);
  expect(result).toEqual({ status: 'ok', data: { ...data, view } });
  if (result?.status === 'ok') expect(validate(table.data, result.data)).toEqual({ valid: true });
});

it('refuses a sort by a column the table does not have', async () => {
  const view = { sort: { column: 2, direction: 'ascending' } } as const;
  expect(await table.actions.view.handle(ctx, view, data)).toEqual({
    status: 'error',
    reason: 'the table has no column 2',
  });
});
