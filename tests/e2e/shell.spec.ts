import { expect, test } from '@playwright/test';

test('the shell shows what Quanta is, with sidebar and composer, on a desktop', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Quanta' })).toBeVisible();
  await expect(page.getByText('An agent chat for people who write their own tools')).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Sessions' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  // The drawer toggle only exists on narrow screens.
  await expect(page.getByRole('button', { name: 'Open sessions' })).toBeHidden();
  await page.screenshot({ path: 'test-results/shell-desktop.png', fullPage: true });
});

test('on a phone the sidebar is a drawer that opens, traps focus and closes on Escape', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByRole('complementary', { name: 'Sessions' })).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
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
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('dark mode follows the system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // zinc-950 in Tailwind 4's oklch palette; light mode would be white.
  expect(background).not.toBe('rgb(255, 255, 255)');
  await page.screenshot({ path: 'test-results/shell-dark.png', fullPage: true });
});
