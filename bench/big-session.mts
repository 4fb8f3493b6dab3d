// A session of 1,000 messages against one of 10, opened in Chromium: the page's HTML bytes, the
// time to interactive, the longest long task and its CPU. Run after `npx next build`:
//   npx tsx bench/big-session.mts [runs]
// It seeds both sessions into a fresh data folder (tests/helpers/seed-sessions.mts), starts
// `next start` on it and opens each page `runs` times (default 5) in a new browser context
// (a cold visit), printing medians.
//
// Interactive: React has hydrated the composer (its handlers are attached) and no long task
// ends later, in milliseconds from the start of the navigation. Long tasks are the browser's
// own (PerformanceObserver 'longtask', tasks over 50 ms). Layout shift: the sum of the scores of
// the load's layout shifts (PerformanceObserver 'layout-shift'; Chromium's CLS is the worst
// window of them, which a load this short holds one or two of). Longest task's CPU: from
// Chromium's timeline, in as many loads again, each traced: the main thread's CPU time in its
// task that held the most. A task's length on this 2-core machine is mostly its wait for a core
// (the server and the browser's other threads hold them as the page opens); its CPU is the
// page's own work, steadier than the wall time though not free of the machine.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tests/helpers/chromium';
import { coldVisit } from './harness/cold-visit';
import { longestTaskCpu } from './harness/longest-task';
import { freePort, seedSessions, startNext } from './harness/servers';
import { percentile } from './harness/stats';

const runs = Number(process.argv[2] ?? 5);
const COUNTS = [1000, 10];

type Load = { interactive: number; longestTask: number; longTasks: number; layoutShift: number };

const secret = randomBytes(32).toString('hex');
const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
const seeded = seedSessions(dataDir, secret, COUNTS);
const server = await startNext({
  port: await freePort(),
  env: { QUANTA_DATA_DIR: dataDir, QUANTA_SECRET: secret },
});
const browser = await chromium.launch(chromiumLaunchOptions);

/** The page's HTML, and how much of it is the RSC payload (the scripts Next inlines). */
async function htmlBytes(path: string): Promise<{ html: number; payload: number }> {
  const response = await fetch(`${server.url}${path}`, {
    headers: { cookie: `quanta_id=${seeded.cookie}` },
  });
  const html = await response.text();
  const payload = [...html.matchAll(/<script[^>]*>(self\.__next_f\.push[\s\S]*?)<\/script>/g)];
  return {
    html: Buffer.byteLength(html),
    payload: payload.reduce((sum, [, script]) => sum + Buffer.byteLength(script as string), 0),
  };
}

const visit = () =>
  coldVisit(browser, {
    url: server.url,
    cookie: seeded.cookie,
    viewport: { width: 1440, height: 900 },
  });

/**
 * Opens `path` in `page` and waits until React has hydrated the composer (its handlers are
 * attached), then for a quiet while: no long task still to come. Returns when it hydrated, in
 * milliseconds from the start of the navigation.
 */
async function open(page: Page, path: string): Promise<number> {
  await page.goto(`${server.url}${path}`);
  const hydrated = await page
    .waitForFunction(
      () => {
        const composer = document.querySelector('textarea');
        const ready =
          composer && Object.keys(composer).some((key) => key.startsWith('__reactProps'));
        return ready ? performance.now() : false;
      },
      undefined,
      { polling: 10, timeout: 60_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
    .catch(async (error) => {
      throw new Error(`${path} never hydrated: ${await page.title()}`, { cause: error });
    });
  await page.waitForTimeout(1500);
  return hydrated;
}

async function load(path: string): Promise<Load> {
  const { context, page } = await visit();
  await page.addInitScript(() => {
    const tasks: { start: number; end: number }[] = [];
    (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const task of list.getEntries())
        tasks.push({ start: task.startTime, end: task.startTime + task.duration });
    }).observe({ type: 'longtask', buffered: true });
    const shifts = { total: 0 };
    (window as unknown as { layoutShift: typeof shifts }).layoutShift = shifts;
    new PerformanceObserver((list) => {
      for (const shift of list.getEntries() as (PerformanceEntry & { value: number })[])
        shifts.total += shift.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const hydrated = await open(page, path);
  const { tasks, layoutShift } = await page.evaluate(() => {
    const measured = window as unknown as {
      longTasks: { start: number; end: number }[];
      layoutShift: { total: number };
    };
    return { tasks: measured.longTasks, layoutShift: measured.layoutShift.total };
  });
  await context.close();
  return {
    interactive: Math.max(hydrated, ...tasks.map(({ end }) => end)),
    longestTask: Math.max(0, ...tasks.map(({ start, end }) => end - start)),
    longTasks: tasks.length,
    layoutShift,
  };
}

/** The page's load, traced: the CPU time its renderer's main thread spent in its longest task. */
async function tracedLoad(path: string): Promise<number> {
  const { context, page } = await visit();
  try {
    return await longestTaskCpu(browser, page, () => open(page, path));
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => percentile(values, 50);

try {
  console.log(`${runs} cold loads each, medians; 1440×900 Chromium`);
  console.log(
    'messages | page HTML | of which RSC payload | interactive | longest long task | long tasks | layout shift | longest task CPU',
  );
  for (const { id, count } of seeded.sessions) {
    const path = `/c/${id}`;
    await load(path); // warm the server's code paths
    const loads: Load[] = [];
    for (let run = 0; run < runs; run++) loads.push(await load(path));
    const cpu: number[] = [];
    for (let run = 0; run < runs; run++) cpu.push(await tracedLoad(path));
    const { html, payload } = await htmlBytes(path);
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
    console.log(
      [
        count,
        kb(html),
        kb(payload),
        `${median(loads.map((l) => l.interactive)).toFixed(0)} ms`,
        `${median(loads.map((l) => l.longestTask)).toFixed(0)} ms`,
        median(loads.map((l) => l.longTasks)),
        median(loads.map((l) => l.layoutShift)).toFixed(3),
        `${median(cpu).toFixed(1)} ms`,
      ].join(' | '),
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
