import { expect, test } from '@playwright/test';
import { notReloaded, openListening } from '../helpers/pages';

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
