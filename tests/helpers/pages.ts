import type { Page } from '@playwright/test';

/** Opens `url` in `page` and waits until its live event stream is connected. */
export async function openListening(page: Page, url: string) {
  const listening = page.waitForResponse(
    (response) => /\/api\/sessions\/[^/]+\/events$/.test(response.url()) && response.ok(),
  );
  await page.goto(url);
  await listening;
  // A mark on the window that a reload would wipe.
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
}

/** Whether `page` still holds the mark openListening left: it was not reloaded since. */
export const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded);
