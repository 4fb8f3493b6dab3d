import type { Request } from '@playwright/test';
import {
  emptySession,
  expect,
  hydrated,
  makePublic,
  rowAction,
  sidebar,
  test,
  titledSessions,
} from './fixtures';

test('create, rename, share a session; another identity reads it and forks it', async ({
  page,
  stranger: reader,
}) => {
  await emptySession(page);
  const url = page.url();
  await expect(page.getByRole('heading', { name: 'New chat' })).toBeVisible();

  await rowAction(page, 'New chat', 'Rename');
  const title = page
    .getByRole('dialog', { name: 'Rename session' })
    .getByRole('textbox', { name: 'Title' });
  await title.fill('Trip plans');
  await title.press('Enter');
  await expect(sidebar(page).getByRole('link', { name: 'Trip plans' })).toBeVisible();
  // Focus is back on the row's menu button, which now names the new title.
  await expect(sidebar(page).getByRole('button', { name: 'Actions for Trip plans' })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Trip plans' })).toBeVisible();
  await expect(page).toHaveTitle('Trip plans · Quanta');

  await makePublic(page);
  await page.screenshot({ path: 'test-results/session-share.png' });
  await page.keyboard.press('Escape');

  // Someone else, with only the link.
  await reader.goto(url);
  await expect(reader.getByRole('heading', { name: 'Trip plans' })).toBeVisible();
  await expect(reader.getByText('Read-only', { exact: true })).toBeVisible();
  await expect(reader.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await expect(reader.getByRole('button', { name: 'Share' })).toHaveCount(0);
  await expect(reader.locator('meta[property="og:title"]')).toHaveAttribute(
    'content',
    'Trip plans',
  );
  await reader.screenshot({ path: 'test-results/session-read-only.png' });

  await reader.getByRole('button', { name: 'Fork to continue' }).click();
  await expect(reader).not.toHaveURL(url);
  await expect(reader).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
  await expect(reader.getByRole('button', { name: 'Share' })).toBeVisible();
  await expect(sidebar(reader).getByRole('link', { name: 'Trip plans' })).toBeVisible();
  await reader.screenshot({ path: 'test-results/session-forked.png' });

  // Made private again, the link tells the other identity nothing.
  await page.getByRole('button', { name: 'Share' }).click();
  // The toggle shows at once; the link is private once the server has stored it.
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'PATCH' && response.ok(),
  );
  await page
    .getByRole('dialog', { name: 'Share session' })
    .getByRole('checkbox', { name: 'Public link' })
    .uncheck();
  await saved;
  await expect(
    page
      .getByRole('dialog', { name: 'Share session' })
      .getByRole('textbox', { name: 'Share link' }),
  ).toHaveCount(0);
  const response = await reader.goto(url);
  expect(response?.status()).toBe(404);
});

test('the row menu shares a session, then gives focus back to its button', async ({ page }) => {
  await emptySession(page);
  await rowAction(page, 'New chat', 'Share');
  const share = page.getByRole('dialog', { name: 'Share session' });
  await share.getByRole('checkbox', { name: 'Public link' }).check();
  await expect(share.getByRole('textbox', { name: 'Share link' })).toHaveValue(page.url());
  await page.screenshot({ path: 'test-results/session-row-share.png' });
  await page.keyboard.press('Escape');
  await expect(share).toHaveCount(0);
  await expect(sidebar(page).getByRole('button', { name: 'Actions for New chat' })).toBeFocused();
});

test('delete asks for confirmation and removes the session', async ({ page }) => {
  await emptySession(page);
  const url = page.url();
  // The list loads after the page: count it once the new session is in it.
  await expect(sidebar(page).getByRole('button', { name: 'Actions for New chat' })).toBeVisible();
  const before = await sidebar(page).getByRole('listitem').count();
  await rowAction(page, 'New chat', 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete session?' });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: 'test-results/session-delete-confirm.png' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(before - 1);
  expect((await page.goto(url))?.status()).toBe(404);
});

test('search filters the sidebar by title', async ({ page }) => {
  await page.goto('/');
  await titledSessions(page, ['Trip plans', 'Tax return', 'Birthday ideas']);
  await page.reload();
  const search = sidebar(page).getByRole('searchbox', { name: 'Search chats' });
  await search.fill('t');
  await expect(sidebar(page).getByRole('link', { name: 'Birthday ideas' })).toBeVisible();
  await search.fill('ta');
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(1);
  await expect(sidebar(page).getByRole('link', { name: 'Tax return' })).toBeVisible();
  await search.fill('holiday');
  await expect(sidebar(page).getByText('No chats match “holiday”.')).toBeVisible();
  await search.fill('');
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(3);
  await expect(sidebar(page).getByRole('heading', { name: 'Today' })).toBeVisible();
});

test('the sidebar prefetches a page once the reader reaches for its link, not on sight', async ({
  page,
}) => {
  await page.goto('/');
  const ids = await titledSessions(
    page,
    Array.from({ length: 12 }, (_, index) => `Chat ${index + 1}`),
  );
  // The pages the router asked the server for ahead of a click, by path.
  const prefetched: string[] = [];
  const isPrefetch = (request: Request) => request.headers()['next-router-prefetch'] !== undefined;
  page.on('request', (request) => {
    if (isPrefetch(request)) prefetched.push(new URL(request.url()).pathname);
  });
  const prefetchOf = (path: string) =>
    page.waitForRequest(
      (request) => new URL(request.url()).pathname === path && isPrefetch(request),
    );

  await page.goto(`/c/${ids[0]}`);
  const link = (title: string) => sidebar(page).getByRole('link', { name: title, exact: true });
  const newChat = sidebar(page).getByRole('link', { name: 'New chat' });
  await hydrated(newChat);
  await expect(link('Chat 12')).toBeInViewport();
  await expect(link('Chat 1')).toBeInViewport();
  // Time for the router to prefetch what is in view, as it did for every one of these links
  // and for New chat's, the home page.
  await page.waitForTimeout(1_500);
  expect(prefetched).toEqual([]);

  // A pointer over New chat asks for the home page.
  const home = prefetchOf('/');
  await newChat.hover();
  await home;
  // A pointer over a link, then keyboard focus on another: each asks for its own chat alone.
  const hovered = prefetchOf(`/c/${ids[4]}`);
  await link('Chat 5').hover();
  await hovered;
  const focused = prefetchOf(`/c/${ids[8]}`);
  await link('Chat 9').focus();
  await focused;
  // Reached for again, the first asks nothing more: the router keeps what it prefetched.
  await link('Chat 5').hover();
  await page.waitForTimeout(500);
  expect(prefetched.filter((path) => path !== '/').sort()).toEqual(
    [`/c/${ids[4]}`, `/c/${ids[8]}`].sort(),
  );

  // And it opens the chat.
  await link('Chat 5').click();
  await expect(page).toHaveURL(`/c/${ids[4]}`);
  await expect(page.getByRole('heading', { name: 'Chat 5' })).toBeVisible();
});

test('an API token made in the UI lets a script act as the owner', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'API tokens' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'API tokens' });
  await dialog.getByLabel('New token’s name').fill('script');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const token = await dialog.locator('code').textContent();
  await expect(dialog.getByRole('list', { name: 'Your tokens' })).toContainText('script');
  await page.screenshot({ path: 'test-results/session-api-tokens.png' });
  // Copying says so in a toast (sonner, which the page loads once it has hydrated).
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await dialog.getByRole('button', { name: 'Copy token' }).click();
  await expect(page.getByText('Token copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token?.trim());
  const created = await request.post('/api/sessions', {
    headers: { authorization: `Bearer ${token?.trim()}` },
    data: { title: 'Made by a script' },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  await expect(sidebar(page).getByRole('link', { name: 'Made by a script' })).toBeVisible();
});

test('the API tokens dialog fits a phone in dark mode', async ({ phone: page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open sessions' }).click();
  await page.getByRole('button', { name: 'API tokens' }).last().click();
  const dialog = page.getByRole('dialog', { name: 'API tokens' });
  await dialog.getByLabel('New token’s name').fill('phone');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByRole('list', { name: 'Your tokens' })).toContainText('phone');
  const box = await dialog.boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'test-results/session-api-tokens-phone-dark.png' });
});
