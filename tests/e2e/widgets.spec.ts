import { expect, type Page, test } from '@playwright/test';

async function ask(page: Page, text: string) {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]{22}$/);
}

test('the counter opens in a modal from its button, closes with Escape, and has a link', async ({
  page,
}) => {
  await ask(page, 'show me a counter starting at 3');
  const button = page.getByRole('button', { name: 'Open counter' });
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Open counter' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('data-container', 'modal');
  await expect(dialog.getByRole('status', { name: 'Count' })).toHaveText('3');
  await expect(page).toHaveURL(/\?widget=call_/);
  await page.screenshot({ path: 'test-results/widget-modal.png' });

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
  await expect(page).not.toHaveURL(/widget=/);

  // The open widget is in the URL: the link opens it directly, after a full load.
  await button.click();
  const link = page.url();
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(other.getByRole('dialog', { name: 'Open counter' })).toBeVisible();
  await other.getByRole('button', { name: 'Close' }).click();
  await expect(other.getByRole('dialog')).toHaveCount(0);
  await other.close();
});

/** Answers the next prompt with one tool call whose ui is `ui`, as the server would stream it. */
async function answerWithUi(page: Page, ui: object) {
  await page.route('**/api/sessions/*/messages', async (route) => {
    const chunks = [
      { type: 'start', messageId: 'a_fixture' },
      { type: 'start-step' },
      {
        type: 'tool-input-available',
        toolCallId: 'call_fixture',
        toolName: 'show_counter',
        input: {},
      },
      {
        type: 'tool-output-available',
        toolCallId: 'call_fixture',
        output: { isError: false, modelText: 'shown', ui, durationMs: 1 },
      },
      { type: 'finish-step' },
      { type: 'finish' },
    ];
    await route.fulfill({
      headers: { 'content-type': 'text/event-stream' },
      body: `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
    });
  });
}

test('an unknown widget id and a view that throws each show a fallback; the chat goes on', async ({
  page,
}) => {
  await answerWithUi(page, { kind: 'widget', label: 'Open mystery', widget: 'mystery' });
  await ask(page, 'anything');
  await page.getByRole('button', { name: 'Open mystery' }).click();
  const unknown = page.getByRole('dialog', { name: 'Open mystery' });
  await expect(unknown.getByRole('alert')).toContainText('Unknown widget “mystery”');
  await page.screenshot({ path: 'test-results/widget-unknown.png' });
  await page.keyboard.press('Escape');

  await page.unrouteAll();
  await answerWithUi(page, {
    kind: 'widget',
    label: 'Open broken counter',
    widget: 'counter',
    data: { count: 'many' },
  });
  await ask(page, 'anything else');
  await page.getByRole('button', { name: 'Open broken counter' }).click();
  const broken = page.getByRole('dialog', { name: 'Open broken counter' });
  await expect(broken.getByRole('alert')).toContainText('This widget failed to show.');
  await expect(broken.getByRole('alert')).toContainText('a counter needs a whole number');
  await page.screenshot({ path: 'test-results/widget-error.png' });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  // A link to a widget the session does not have says so.
  await page.goto(`${page.url()}?widget=call_missing`);
  await expect(page.getByRole('dialog', { name: 'Widget not found' })).toBeVisible();
});
