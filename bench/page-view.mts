// A page view when the sidebar lists many chats: `next start` on a fresh PGlite folder seeded with
// an owner's chats (the newest of 10 messages, the others of 2), the 10-message chat opened in
// Chromium in a new browser context (a cold visit) and left for 3 s, in which the page fetches
// what it needs and the router prefetches what it chooses. For each number of chats: the server's
// CPU time over the visit (/proc, all its threads), the requests the page sent it (static files
// aside), how many of those were prefetches, and, in as many visits again with Chromium's timeline
// traced, the CPU time of the page's longest task on its main thread (the sidebar lists at most
// 100); then, on a phone (390×844, touch), the longest task's CPU from the tap that opens the
// sidebar's drawer to a second later. Medians of the runs, after one warm-up visit.
//
//   npx tsx bench/page-view.mts [runs]    (default 5)

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tests/helpers/chromium';
import { coldVisit } from './harness/cold-visit';
import { longestTaskCpu } from './harness/longest-task';
import { cpuMs } from './harness/proc';
import { freePort, seedSessions, startNext } from './harness/servers';
import { percentile } from './harness/stats';

const runs = Number(process.argv[2] ?? 5);
/** An owner with one chat, and one with a sidebar longer than a screen. */
const CHATS = [1, 101];
const VISIT_MS = 3_000;
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

const browser = await chromium.launch(chromiumLaunchOptions);

type Visit = { cpuMs: number; requests: number; prefetches: number };

try {
  console.log(`${runs} cold visits each, medians; 1440×900 Chromium`);
  console.log(
    'chats | server CPU per page view | requests | prefetches | longest task CPU | drawer longest task CPU',
  );
  for (const chats of CHATS) {
    const secret = randomBytes(32).toString('hex');
    const dataDir = mkdtempSync(join(tmpdir(), 'quanta-bench-'));
    // The chat opened is the newest: at the top of the list, as a chat in use is.
    const seeded = seedSessions(dataDir, secret, [...Array<number>(chats - 1).fill(2), 10]);
    const server = await startNext({
      port: await freePort(),
      env: { QUANTA_DATA_DIR: dataDir, QUANTA_SECRET: secret },
    });
    const path = `/c/${seeded.sessions.at(-1)?.id}`;
    /** A cold visit: a new browser context with the owner's cookie, closed after `look`. */
    const visit = async <T,>(look: (page: Page) => Promise<T>, device = DESKTOP): Promise<T> => {
      const { context, page } = await coldVisit(browser, {
        url: server.url,
        cookie: seeded.cookie,
        ...device,
      });
      try {
        return await look(page);
      } finally {
        await context.close();
      }
    };
    const open = async (page: Page) => {
      await page.goto(`${server.url}${path}`);
      await page.waitForTimeout(VISIT_MS);
    };
    const measured = async (page: Page): Promise<Visit> => {
      let requests = 0;
      let prefetches = 0;
      page.on('request', (request) => {
        if (request.url().includes('/_next/static/')) return;
        requests += 1;
        if (request.headers()['next-router-prefetch']) prefetches += 1;
      });
      const before = cpuMs(server.pid);
      await open(page);
      return { cpuMs: cpuMs(server.pid) - before, requests, prefetches };
    };
    try {
      await visit(open); // warm the server's code paths
      const visits: Visit[] = [];
      for (let run = 0; run < runs; run++) visits.push(await visit(measured));
      const tasks: number[] = [];
      for (let run = 0; run < runs; run++) {
        tasks.push(await visit((page) => longestTaskCpu(browser, page, () => open(page))));
      }
      const drawer: number[] = [];
      for (let run = 0; run < runs; run++) {
        const opened = async (page: Page) => {
          await open(page);
          // Found before the trace: a locator's tap queries the page's roles on its main thread,
          // a task of 30-40 ms of its own.
          const toggle = await page.getByRole('button', { name: 'Open sessions' }).boundingBox();
          if (!toggle) throw new Error('The phone page shows no Open sessions button');
          return longestTaskCpu(browser, page, async () => {
            await page.touchscreen.tap(toggle.x + toggle.width / 2, toggle.y + toggle.height / 2);
            await page.waitForTimeout(1_000);
          });
        };
        drawer.push(await visit(opened, PHONE));
      }
      const median = (pick: (visit: Visit) => number) => percentile(visits.map(pick), 50);
      console.log(
        [
          chats,
          `${median((visit) => visit.cpuMs).toFixed(0)} ms`,
          median((visit) => visit.requests),
          median((visit) => visit.prefetches),
          `${percentile(tasks, 50).toFixed(1)} ms`,
          `${percentile(drawer, 50).toFixed(1)} ms`,
        ].join(' | '),
      );
    } finally {
      await server.stop();
    }
  }
} finally {
  await browser.close();
}
