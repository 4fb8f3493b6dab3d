import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { descendantTicks } from './proc';
import { untilSteady } from './servers';

/**
 * The CPU clock ticks of the Chromium processes this script started so far: its descendants
 * named chromium (the browser, its zygotes, renderers and utilities).
 */
function chromiumTicks(): number {
  const stats = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.set(Number(entry), readFileSync(`/proc/${entry}/stat`, 'utf8'));
    } catch {
      // It exited while the folder was read.
    }
  }
  return descendantTicks(stats, process.pid, 'chromium');
}

/**
 * A cold visit's page: a new browser context (nothing cached) holding the owner's `cookie` for
 * `url`, and a page in it, returned once Chromium has gone quiet. A new context opens a window,
 * and the window's own pages (Chromium 156 renders its omnibox popup in a renderer of its own)
 * took 450-800 ms of CPU in half the cold visits, as the page under test loaded: on a 2-core
 * machine the page then waited for a core, and a trace's busiest renderer was that popup's.
 */
export async function coldVisit(
  browser: Browser,
  { url, cookie, ...options }: { url: string; cookie: string } & BrowserContextOptions,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  await context.addCookies([{ name: 'quanta_id', value: cookie, url }]);
  const page = await context.newPage();
  await untilSteady(chromiumTicks);
  return { context, page };
}
