import { expect, type Page, test } from '@playwright/test';

/** The text lengths the latest answer showed, one per DOM change, while it streamed. */
async function recordAnswerPaints(page: Page) {
  await page.evaluate(() => {
    const lengths: number[] = [];
    (window as unknown as { paints: number[] }).paints = lengths;
    new MutationObserver(() => {
      const answers = document.querySelectorAll('[aria-label="Transcript"] > li');
      const last = answers[answers.length - 1];
      if (last) lengths.push(last.textContent?.length ?? 0);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('with no model configured, the demo model calls a tool and answers, streaming', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill('What is 12 * (3 + 4)?');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
  await recordAnswerPaints(page);

  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText('What is 12 * (3 + 4)?')).toBeVisible();
  const card = transcript.locator('details', { hasText: 'calculate' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Done');
  await expect(transcript.getByText(/84/).last()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  const paints = await page.evaluate(() => (window as unknown as { paints: number[] }).paints);
  expect(new Set(paints.filter((length) => length > 0)).size).toBeGreaterThan(2);

  // The first message titled the session; the sidebar learnt it when the turn ended.
  const sidebar = page.getByRole('complementary', { name: 'Sessions' });
  await expect(sidebar.getByRole('link', { name: 'What is 12 * (3 + 4)?' })).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-demo-answer.png' });

  // The result card opens to show the arguments and what the model was told.
  await card.locator('summary').click();
  await expect(card).toContainText('12 * (3 + 4)');
  await expect(card).toContainText('Result');

  await page.reload();
  await expect(transcript.locator('details', { hasText: 'calculate' })).toContainText('Done');
  await expect(transcript.getByText(/84/).last()).toBeVisible();
});

test('a widget button appears after its tool card, live and after reload', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill('Show me a counter starting at 3');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/c\//);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.locator('details', { hasText: 'show_counter' })).toContainText('Done');
  await expect(transcript.getByRole('button', { name: 'Open counter' })).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-widget-button.png' });
  await page.reload();
  await expect(transcript.getByRole('button', { name: 'Open counter' })).toBeVisible();
});
