import type { Browser, Page } from '@playwright/test';

export type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string } };
};

/**
 * Runs `load` in `page` with Chromium's timeline traced, and returns the CPU time the page's
 * main thread spent in its longest task. On a busy machine a task's length is mostly its wait
 * for a core; its CPU is the page's own work.
 */
export async function longestTaskCpu(
  browser: Browser,
  page: Page,
  load: () => Promise<unknown>,
): Promise<number> {
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
  });
  await load();
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  const longest = longestMainThreadTask(traceEvents, new URL(page.url()).origin);
  // A trace with none (another Chromium, other categories) must not read as a faster page.
  if (longest === undefined) {
    throw new Error(`The trace of ${page.url()} holds no task of a page's main thread.`);
  }
  return longest;
}

/**
 * The CPU milliseconds of the longest task of the page's main thread in a trace: of the renderer
 * main threads whose events name a URL of `origin` (a script they ran, a file they asked for),
 * the one that ran the most (a new tab's first renderer may have run too). Chromium's own pages
 * (its omnibox popup, say) run in renderers of their own, and may run more than the page.
 * Undefined when no such thread ran a task.
 */
export function longestMainThreadTask(
  traceEvents: TraceEvent[],
  origin: string,
): number | undefined {
  const thread = (event: TraceEvent) => `${event.pid}:${event.tid}`;
  const mainThreads = new Set(
    traceEvents
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map(thread),
  );
  const pageThreads = new Set(
    traceEvents
      .filter(
        (event) =>
          event.args?.data?.url?.startsWith(`${origin}/`) && mainThreads.has(thread(event)),
      )
      .map(thread),
  );
  const threads = new Map<string, { total: number; longest: number }>();
  for (const event of traceEvents) {
    if (event.ph !== 'X' || event.name !== 'RunTask' || event.tdur === undefined) continue;
    if (!pageThreads.has(thread(event))) continue;
    const cpu = event.tdur / 1000;
    const { total, longest } = threads.get(thread(event)) ?? { total: 0, longest: 0 };
    threads.set(thread(event), { total: total + cpu, longest: Math.max(longest, cpu) });
  }
  const [main] = [...threads.values()].sort((one, other) => other.total - one.total);
  return main?.longest;
}
