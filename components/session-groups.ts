/** The headings the sidebar sorts sessions under, newest first. */
export const GROUPS = ['Today', 'Yesterday', 'Previous 7 days', 'Older'] as const;
export type Group = (typeof GROUPS)[number];

/**
 * Sorts items, newest first as they come, under the day they were last updated on, in local
 * time as of `now`. "Previous 7 days" are the seven days before yesterday; a time after `now`
 * (another machine's clock) counts as today.
 */
export function groupByDay<T extends { updatedAt: string }>(
  items: readonly T[],
  now: Date,
): { group: Group; items: T[] }[] {
  const today = startOfDay(now, 0);
  const starts: [Group, number][] = [
    ['Today', today],
    ['Yesterday', startOfDay(now, -1)],
    ['Previous 7 days', startOfDay(now, -8)],
  ];
  const grouped = new Map<Group, T[]>();
  for (const item of items) {
    const time = Date.parse(item.updatedAt);
    const group = starts.find(([, start]) => time >= start)?.[0] ?? 'Older';
    const members = grouped.get(group);
    if (members) members.push(item);
    else grouped.set(group, [item]);
  }
  return GROUPS.flatMap((group) => {
    const members = grouped.get(group);
    return members ? [{ group, items: members }] : [];
  });
}

/** Midnight, local time, `days` days from `now`'s day (DST-safe: the calendar, not 24 h steps). */
function startOfDay(now: Date, days: number): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days).getTime();
}
