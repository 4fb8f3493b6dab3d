import {
  composer,
  expect,
  hydrated,
  send,
  sidebar,
  startChat,
  test,
  titledSessions,
  turnEnded,
} from './fixtures';

test('the home page greets, suggests, and starts in the composer, on a desktop', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'What can I help with?' }),
  ).toBeVisible();
  await expect(sidebar(page)).toBeVisible();
  await expect(composer(page)).toBeFocused();
  await expect(page.getByRole('list', { name: 'Suggestions' }).getByRole('button')).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Demo (offline)' })).toBeVisible();
  // The drawer toggle only exists on narrow screens.
  await expect(page.getByRole('button', { name: 'Open sessions' })).toBeHidden();
  await page.screenshot({ path: 'test-results/shell-desktop.png', fullPage: true });
});

test('a suggestion starts a chat with its prompt', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Show a table of the planets' }).click();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText('Show a table of the planets')).toBeVisible();
  await turnEnded(page);
});

test('New chat stores nothing until the first message', async ({ page }) => {
  await startChat(page, 'what is 2 + 2');
  await turnEnded(page);
  // Until the list refetches, the row is still titled "New chat", like the button.
  await expect(sidebar(page).getByRole('link', { name: 'what is 2 + 2' })).toBeVisible();
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posted.push(new URL(request.url()).pathname);
  });

  await sidebar(page).getByRole('link', { name: 'New chat' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(composer(page)).toBeFocused();
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(1);
  expect(posted).toEqual([]);

  await send(page, 'what is 3 + 3');
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
  expect(posted).toContain('/api/sessions');
  await expect(sidebar(page).getByRole('listitem')).toHaveCount(2);
});

test('on a phone the sidebar is a drawer that opens, traps focus and closes on Escape', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(sidebar(page)).toBeHidden();
  await expect(composer(page)).toBeVisible();
  await page.screenshot({ path: 'test-results/shell-phone.png', fullPage: true });

  const toggle = page.getByRole('button', { name: 'Open sessions' });
  await toggle.click();
  const drawer = page.getByRole('dialog', { name: 'Sessions' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'New chat' })).toBeVisible();
  await page.screenshot({ path: 'test-results/shell-phone-drawer.png', fullPage: true });

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(toggle).toBeFocused();

  // New chat in the drawer closes it and leaves focus in the composer.
  await toggle.click();
  await drawer.getByRole('link', { name: 'New chat' }).click();
  await expect(drawer).toBeHidden();
  await expect(composer(page)).toBeFocused();
});

test.describe('on a touch phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a tap on a chat’s ⋯ in the drawer opens its menu', async ({ page }) => {
    await page.goto('/');
    await titledSessions(page, ['Packing list']);
    await page.reload();
    const toggle = page.getByRole('button', { name: 'Open sessions' });
    await hydrated(toggle);
    await toggle.tap();
    const drawer = page.getByRole('dialog', { name: 'Sessions' });
    // The row's menu mounts as the finger reaches for it; the same tap opens it.
    await drawer.getByRole('button', { name: 'Actions for Packing list' }).tap();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem')).toHaveText(['Rename', 'Share', 'Delete']);
    await page.screenshot({ path: 'test-results/shell-phone-row-menu.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    // The colours' transitions to the dark theme, ended.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map(({ finished }) => finished)),
    );
    await page.screenshot({ path: 'test-results/shell-phone-row-menu-dark.png' });
    await menu.getByRole('menuitem', { name: 'Rename' }).tap();
    await expect(page.getByRole('dialog', { name: 'Rename session' })).toBeVisible();
  });
});

test('dark mode follows the system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // The dark theme's --background; light mode would be white.
  expect(background).not.toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: 'test-results/shell-dark.png', fullPage: true });
});
