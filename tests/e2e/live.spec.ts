import { expect, type Page, test } from '@playwright/test';

/** Opens `url` in `page` and waits until its live event stream is connected. */
async function openListening(page: Page, url: string) {
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

const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded);

test('a reader of a public link sees the owner’s new turn without reloading', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'New chat' }).first().click();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
  const url = page.url();
  await page.getByRole('button', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: 'Share session' });
  await share.getByRole('checkbox', { name: 'Public link' }).check();
  await expect(share.getByRole('textbox', { name: 'Share link' })).toHaveValue(url);
  await page.keyboard.press('Escape');

  // Someone else, with only the link, keeps the page open.
  const other = await browser.newContext();
  const reader = await other.newPage();
  await openListening(reader, url);
  await expect(reader.getByText('Read-only', { exact: true })).toBeVisible();
  await expect(reader.getByText('No messages yet.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Message' }).fill('what is 2 + 2');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(
    page.getByRole('list', { name: 'Transcript' }).locator('blockquote', { hasText: '2 + 2 = 4' }),
  ).toBeVisible();

  const transcript = reader.getByRole('list', { name: 'Transcript' });
  await expect(transcript.locator('blockquote', { hasText: '2 + 2 = 4' })).toBeVisible();
  await expect(transcript.getByText('what is 2 + 2')).toBeVisible();
  expect(await notReloaded(reader)).toBe(true);
  await expect(reader.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await reader.screenshot({ path: 'test-results/live-reader.png' });
  await other.close();
});

test('the owner’s other tab shows a running turn, holds Send, then shows the answer', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill('hello');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  const tab = await page.context().newPage();
  await openListening(tab, page.url());
  // The demo's introduction takes a few seconds to stream: the other tab watches meanwhile.
  await page.getByRole('textbox', { name: 'Message' }).fill('tell me more');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();

  const note = tab
    .getByRole('status')
    .filter({ hasText: 'A turn is running; its answer shows here when it ends…' });
  await expect(note).toBeVisible();
  await expect(tab.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await tab.screenshot({ path: 'test-results/live-other-tab.png' });

  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 });
  await expect(note).toHaveCount(0);
  await expect(tab.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(
    tab.getByRole('list', { name: 'Transcript' }).getByText('tell me more'),
  ).toBeVisible();
  expect(await notReloaded(tab)).toBe(true);
  await tab.close();
});

test('a reload in the middle of a turn shows the turn running, then its whole answer', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill('hello');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page).toHaveURL(/\/c\//);
  await expect(page.getByText('restart Quanta')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('tell me more');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const answer = page.getByRole('list', { name: 'Transcript' }).locator(':scope > li').nth(3);
  await expect(answer).toContainText('I am');
  await page.reload();
  await expect(
    page.getByRole('status').filter({ hasText: 'A turn is running; its answer shows here' }),
  ).toBeVisible();
  await expect(answer).toContainText('restart Quanta', { timeout: 20_000 });
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();
  await expect(page.getByRole('status').filter({ hasText: 'A turn is running' })).toHaveCount(0);
});
