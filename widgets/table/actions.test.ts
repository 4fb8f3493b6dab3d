import { expect, it } from 'vitest';
import { validate } from '@/lib/schema';
import { actionContext, moons } from '@/tests/helpers/widgets';
import { table } from './actions';

it('keeps the sort and filter with the table, valid against its schema', async () => {
  const view = { sort: { column: 1, direction: 'descending' }, filter: 'ar' } as const;
  const result = await table.actions.view.handle(actionContext, view, moons);
  expect(result).toEqual({ status: 'ok', data: { ...moons, view } });
  if (result?.status === 'ok') expect(validate(table.data, result.data)).toEqual({ valid: true });
});

it('refuses a sort by a column the table does not have', async () => {
  const view = { sort: { column: 2, direction: 'ascending' } } as const;
  expect(await table.actions.view.handle(actionContext, view, moons)).toEqual({
    status: 'error',
    reason: 'the table has no column 2',
  });
});
