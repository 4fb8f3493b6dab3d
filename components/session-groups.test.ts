import { expect, it } from 'vitest';
import { groupByDay } from './session-groups';

// Local times, so the test holds in every time zone.
const now = new Date(2026, 2, 10, 9, 30);
const at = (day: number, hour: number) => ({
  updatedAt: new Date(2026, 2, day, hour).toISOString(),
});
const titles = (groups: ReturnType<typeof groupByDay<{ updatedAt: string; title: string }>>) =>
  groups.map(({ group, items }) => [group, items.map((item) => item.title)]);

it('sorts by the local day of the last update: today, yesterday, the 7 days before, older', () => {
  const sessions = [
    { title: 'this morning', ...at(10, 0) },
    { title: 'last night', ...at(9, 23) },
    { title: 'yesterday morning', ...at(9, 0) },
    { title: 'two days ago', ...at(8, 12) },
    { title: 'eight days ago', ...at(2, 0) },
    { title: 'nine days ago', ...at(1, 23) },
  ];
  expect(titles(groupByDay(sessions, now))).toEqual([
    ['Today', ['this morning']],
    ['Yesterday', ['last night', 'yesterday morning']],
    ['Previous 7 days', ['two days ago', 'eight days ago']],
    ['Older', ['nine days ago']],
  ]);
});

it('leaves out empty groups, and counts a time ahead of the clock as today', () => {
  const sessions = [
    { title: 'from a fast clock', ...at(10, 12) },
    { title: 'last month', updatedAt: new Date(2026, 1, 3).toISOString() },
  ];
  expect(titles(groupByDay(sessions, now))).toEqual([
    ['Today', ['from a fast clock']],
    ['Older', ['last month']],
  ]);
});
