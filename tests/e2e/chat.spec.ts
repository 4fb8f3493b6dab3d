import type { Page } from '@playwright/test';
import {
  chatAnswered,
  composer,
  expect,
  failNextTurn,
  hydrated,
  MARKDOWN_ANSWER,
  send,
  startChat,
  test,
  turnEnded,
} from './fixtures';

/**
 * Records the length of the latest answer's own text (not that of its tool cards, buttons or
 * screen-reader label), one per DOM change, from each page's first script on (a reload keeps
 * recording).
 */
async function recordAnswerPaints(page: Page) {
  await page.addInitScript(() => {
    const lengths: number[] = [];
    (window as unknown as { paints: number[] }).paints = lengths;
    new MutationObserver(() => {
      const last = document.querySelector('[aria-label="Transcript"] > li:last-child');
      if (!last?.textContent?.startsWith('Assistant')) return;
      const text = last.cloneNode(true) as Element;
      for (const other of text.querySelectorAll('[role="group"], button, .sr-only')) other.remove();
      lengths.push(text.textContent?.length ?? 0);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

test('with no model configured, the demo model calls a tool and answers, streaming', async ({
  page,
}) => {
  await recordAnswerPaints(page);
  await startChat(page, 'What is 12 * (3 + 4)?');

  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText('What is 12 * (3 + 4)?')).toBeVisible();
  const card = transcript.getByRole('group', { name: 'calculate tool call' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Done');
  await expect(transcript.getByText(/84/).last()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);

  // The first message titled the session; the sidebar learnt it when the turn ended.
  const sidebar = page.getByRole('complementary', { name: 'Sessions' });
  await expect(sidebar.getByRole('link', { name: 'What is 12 * (3 + 4)?' })).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-demo-answer.png' });

  // The card opens to show the arguments and, side by side, what the model was sent and what
  // only the person got.
  await card.getByRole('button', { expanded: false }).click();
  await expect(card.getByRole('figure', { name: 'Arguments' })).toContainText('12 * (3 + 4)');
  await expect(card.getByRole('figure', { name: 'Sent to the model' })).toContainText('84');
  await expect(card.getByRole('figure', { name: 'Shown only to you' })).toContainText('Nothing');

  await page.reload();
  await expect(transcript.getByRole('group', { name: 'calculate tool call' })).toContainText(
    'Done',
  );
  await expect(transcript.getByText(/84/).last()).toBeVisible();

  // Streamed: an answer's text grows over many paints as its words come. Asked of a long answer
  // (the demo's introduction, some 2 s of words): the tool's short one, a lead-in and a line,
  // can paint whole in two on a busy machine, as the page shows what came at most every 50 ms.
  await page.evaluate(() => {
    (window as unknown as { paints: number[] }).paints.length = 0;
  });
  await send(page, 'Hello, who are you?');
  await expect(transcript.getByText('offline demo model', { exact: true })).toBeVisible();
  await turnEnded(page);
  const paints = await page.evaluate(() => (window as unknown as { paints: number[] }).paints);
  expect(new Set(paints.filter((length) => length > 0)).size).toBeGreaterThan(5);
});

test('a note from a tool shows in the transcript, apart from the answer, live and after reload', async ({
  page,
}) => {
  await startChat(page, 'save a note: buy milk');
  const transcript = page.getByRole('list', { name: 'Transcript' });
  const note = transcript.getByRole('complementary', { name: 'Note' });
  await expect(note).toHaveText('Saved to notes');
  await expect(transcript.getByRole('group', { name: 'save_note tool call' })).toContainText(
    'Done',
  );
  // Usage per answer and for the session, for the owner, behind info buttons.
  await expect(
    transcript.getByRole('button', { name: /^Usage: \d+ tokens in · \d+ out/ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Session: \d+ tokens in/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-note.png' });
  await page.reload();
  await expect(note).toHaveText('Saved to notes');
});

test('a widget button appears after its tool card, live and after reload', async ({ page }) => {
  await page.goto('/');
  // Typed before React hydrated the composer, the text would be its server HTML's, and lost.
  await hydrated(composer(page));
  await composer(page).fill('Show me a counter starting at 3');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page).toHaveURL(/\/c\//);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByRole('group', { name: 'show_counter tool call' })).toContainText(
    'Done',
  );
  await expect(transcript.getByRole('button', { name: 'Open counter' })).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-widget-button.png' });
  await page.reload();
  await expect(transcript.getByRole('button', { name: 'Open counter' })).toBeVisible();
});

test('edit an earlier message: the turn runs again from there; regenerate the last answer', async ({
  page,
}) => {
  await startChat(page, 'what is 2 + 2');
  await turnEnded(page);
  await send(page, 'what is 3 + 3');
  await turnEnded(page);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByText('3 + 3 = 6.')).toBeVisible();

  await transcript.getByRole('button', { name: 'Edit' }).first().click();
  const editor = transcript.getByRole('textbox', { name: 'Edit message' });
  await expect(editor).toBeFocused();
  await editor.fill('what is 5 + 5');
  await page.screenshot({ path: 'test-results/chat-edit.png' });
  await editor.press('Enter');
  // A later turn follows the edited message: the edit says what it drops before it does.
  const confirm = page.getByRole('dialog', { name: 'Edit this message?' });
  await expect(confirm).toContainText('Editing this message removes the 3 messages after it.');
  await confirm.getByRole('button', { name: 'Send edit' }).click();
  await expect(transcript.getByText('5 + 5 = 10.')).toBeVisible();
  await turnEnded(page);
  await expect(transcript.getByText('what is 3 + 3')).toHaveCount(0);
  await expect(transcript.getByText('what is 2 + 2')).toHaveCount(0);

  await page.reload();
  await expect(transcript.getByText('what is 5 + 5')).toBeVisible();
  await expect(transcript.getByText('what is 3 + 3')).toHaveCount(0);

  await transcript.getByRole('button', { name: 'Regenerate' }).click();
  await turnEnded(page);
  await expect(transcript.getByText('5 + 5 = 10.')).toBeVisible();
  await page.reload();
  await expect(transcript.getByRole('group', { name: 'calculate tool call' })).toHaveCount(1);
});

test('a failed turn shows its error in place, and Retry writes the answer again', async ({
  page,
}) => {
  await failNextTurn(page, 'The model provider failed (HTTP 503). Overloaded');
  await startChat(page, 'what is 6 * 7');
  await turnEnded(page);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  // The plain words first; the provider's own text folded under Details.
  const alert = page.getByRole('alert').filter({ hasText: 'HTTP 503' });
  await expect(alert).toContainText('The model provider failed (HTTP 503).');
  await expect(alert.getByText('Overloaded')).toBeHidden();
  await alert.getByText('Details').click();
  await expect(alert.getByText('Overloaded')).toBeVisible();
  await expect(transcript.getByText('Half an ans')).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-failed-turn.png' });
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(transcript.getByText('6 × 7 = 42.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'HTTP 503' })).toHaveCount(0);
  await expect(transcript.getByText('Half an ans')).toHaveCount(0);
});

test('the model picker shows the demo model with a badge that explains it', async ({ page }) => {
  await startChat(page, 'hi');
  await turnEnded(page);
  // With no model configured the demo is the only one: no picker, its badge names it once.
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveCount(0);
  await expect(page.getByText('Demo (offline)')).toHaveCount(1);
  await page.getByRole('button', { name: 'Demo (offline)' }).click();
  const about = page.getByRole('dialog', { name: 'The offline demo model' });
  await expect(about).toContainText('OPENAI_API_KEY');
  await page.screenshot({ path: 'test-results/chat-demo-badge.png' });
  await page.keyboard.press('Escape');
  await expect(about).toHaveCount(0);
});

test('on a phone, in dark mode, the chat works with the keyboard alone', async ({
  phone: page,
}) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).focus();
  await page.keyboard.type('show me a counter and what is 2^10');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/c\//);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript.getByRole('button', { name: 'Open counter' })).toBeVisible();
  await expect(transcript.getByText('2^10 = 1024.')).toBeVisible();
  await turnEnded(page);
  // Nothing is wider than the screen.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
  await page.screenshot({ path: 'test-results/chat-phone-dark.png' });

  await transcript.getByRole('button', { name: 'Open counter' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Counter' })).toBeVisible();
  await page.screenshot({ path: 'test-results/widget-modal-phone-dark.png' });
  await page.keyboard.press('Escape');
  await expect(transcript.getByRole('button', { name: 'Open counter' })).toBeFocused();
});

test('the transcript follows a streaming answer until the reader scrolls up', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 900, height: 520 } });
  const page = await context.newPage();
  await startChat(page, 'hello');
  await turnEnded(page);
  const scroller = page
    .locator('div.overflow-y-auto')
    .filter({ has: page.getByRole('list', { name: 'Transcript' }) });
  const gap = () =>
    scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
  // Followed to the end of the first answer.
  await expect.poll(gap).toBeLessThan(4);

  // Followed while the next one streams, not a few lines behind it.
  await send(page, 'hi again');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expect.poll(gap).toBeLessThan(4);
  await turnEnded(page);
  await send(page, 'and once more');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await scroller.hover();
  await page.mouse.wheel(0, -600);
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await expect(jump).toBeVisible();
  // The answer goes on growing below; the reader stays where they scrolled to.
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 });
  expect(await gap()).toBeGreaterThan(100);
  await page.screenshot({ path: 'test-results/chat-jump-to-latest.png' });
  await jump.click();
  await expect.poll(gap).toBeLessThan(4);
  await expect(jump).toHaveCount(0);
  await context.close();
});

test('an answer’s buttons switch on at its end without fading in', async ({ page }) => {
  const answer = await chatAnswered(page, 'Which inner planet is smallest?', MARKDOWN_ANSWER);
  // The buttons Streamdown dims while an answer streams (a link is a button too, and is not).
  const buttons = answer.locator('.markdown button[class*="disabled:opacity-50"]');
  await expect(answer.locator('[data-streamdown="code-block-copy-button"]')).toBeVisible();
  // Streamdown disables a code block's and a table's buttons while the answer streams, and
  // enables them as it ends, as here. Faded in, every button of a long answer started a
  // transition at once, and their events and repaints made the stream's longest task.
  const seen = await buttons.evaluateAll(async (all: HTMLButtonElement[]) => {
    let transitions = 0;
    const dimmed: string[] = [];
    for (const button of all) {
      button.addEventListener('transitionrun', () => transitions++);
      button.disabled = true;
      dimmed.push(getComputedStyle(button).opacity);
    }
    for (const button of all) button.disabled = false;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return { transitions, dimmed, shown: all.map((button) => getComputedStyle(button).opacity) };
  });
  // The table's and the code block's buttons, dimmed while disabled, shown once enabled.
  expect(seen.dimmed.length).toBeGreaterThan(3);
  expect(new Set(seen.dimmed)).toEqual(new Set(['0.5']));
  expect(new Set(seen.shown)).toEqual(new Set(['1']));
  expect(seen.transitions).toBe(0);
});
