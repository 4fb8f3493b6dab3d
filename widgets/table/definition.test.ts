import { expect, it } from 'vitest';
import { validate } from '@/lib/schema';
import { table } from './definition';

const ctx = { sessionId: 's', toolCallId: 'c', ownerId: 'o' };
const data = {
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
  const view = { sort: { column: 1, direction: 'descending' }, filter: 'ar' };
  const result = await table.actions?.view?.handle(ctx, view, data);
  expect(result).toEqual({ status: 'ok', data: { ...data, view } });
  if (result?.status === 'ok') expect(validate(table.data, result.data)).toEqual({ valid: true });
});

it('refuses a sort by a column the table does not have', async () => {
  const view = { sort: { column: 2, direction: 'ascending' } };
  expect(await table.actions?.view?.handle(ctx, view, data)).toEqual({
    status: 'error',
    reason: 'the table has no column 2',
  });
});
