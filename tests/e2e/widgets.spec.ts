import type { Page } from '@playwright/test';
import { expect, fulfillStream, send, shareWith, startChat, test, turnEnded } from './fixtures';

test('the counter opens in a modal from its button, closes with Escape, and has a link', async ({
  page,
}) => {
  await startChat(page, 'show me a counter starting at 3');
  const button = page.getByRole('button', { name: 'Open counter' });
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Counter' });
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
  await expect(other.getByRole('dialog', { name: 'Counter' })).toBeVisible();
  await other.getByRole('button', { name: 'Close' }).click();
  await expect(other.getByRole('dialog')).toHaveCount(0);
  await other.close();
});

/** Answers the next prompt with one tool call whose ui is `ui`, as the server would stream it. */
async function answerWithUi(page: Page, ui: object) {
  await page.route('**/api/sessions/*/messages', (route) =>
    fulfillStream(route, [
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
    ]),
  );
}

test('an unknown widget id and a view that throws each show a fallback; the chat goes on', async ({
  page,
}) => {
  await answerWithUi(page, { kind: 'widget', label: 'Open mystery', widget: 'mystery' });
  await startChat(page, 'anything');
  await page.getByRole('button', { name: 'Open mystery' }).click();
  const unknown = page.getByRole('dialog', { name: 'Unknown widget' });
  await expect(unknown.getByRole('alert')).toContainText('no view for the widget “mystery”');
  await page.screenshot({ path: 'test-results/widget-unknown.png' });
  await page.keyboard.press('Escape');

  await page.unrouteAll();
  await answerWithUi(page, {
    kind: 'widget',
    label: 'Open broken counter',
    widget: 'counter',
    data: { count: 'many' },
  });
  await startChat(page, 'anything else');
  await page.getByRole('button', { name: 'Open broken counter' }).click();
  const broken = page.getByRole('dialog', { name: 'Counter' });
  await expect(broken.getByRole('alert')).toContainText('This widget failed to show.');
  await expect(broken.getByRole('alert')).toContainText('a counter needs a whole number');
  await page.screenshot({ path: 'test-results/widget-error.png' });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();

  // A link to a widget the session does not have says so.
  await page.goto(`${page.url()}?widget=call_missing`);
  await expect(page.getByRole('dialog', { name: 'Widget not found' })).toBeVisible();
});

test('the counter acts on the server: the state is kept, and a reader sees it change live', async ({
  page,
  stranger: reader,
}) => {
  await startChat(page, 'show me a counter starting at 3');
  await page.getByRole('button', { name: 'Open counter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Counter' });
  const count = dialog.getByRole('status', { name: 'Count' });
  await dialog.getByRole('button', { name: 'Increment' }).click();
  await expect(count).toHaveText('4');
  await dialog.getByRole('button', { name: 'Increment' }).click();
  await expect(count).toHaveText('5');
  await page.screenshot({ path: 'test-results/widget-counter-acted.png' });

  const link = page.url();
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'Counter' }).getByRole('status')).toHaveText('5');

  // Shared: a reader opens the same widget read-only and sees the owner's clicks arrive.
  await page.keyboard.press('Escape');
  await shareWith(page, reader, link);
  const seen = reader.getByRole('dialog', { name: 'Counter' });
  await expect(seen.getByRole('status', { name: 'Count' })).toHaveText('5');
  await expect(seen.getByRole('button', { name: 'Increment' })).toBeDisabled();
  await expect(seen).toContainText('Read-only');

  await page.getByRole('button', { name: 'Open counter' }).click();
  await page
    .getByRole('dialog', { name: 'Counter' })
    .getByRole('button', { name: 'Reset' })
    .click();
  await expect(seen.getByRole('status', { name: 'Count' })).toHaveText('0');
  await reader.screenshot({ path: 'test-results/widget-counter-reader-live.png' });

  // The widget can hand the agent a message: a new turn starts with it.
  await page
    .getByRole('dialog', { name: 'Counter' })
    .getByRole('button', { name: 'Ask the agent about 0' })
    .click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(
    page.getByRole('list', { name: 'Transcript' }).getByText('0 × 0 = 0.'),
  ).toBeVisible();
});

test('the task board opens in a drawer, shared by the model and the human', async ({ page }) => {
  await startChat(page, 'add a task: water the plants');
  await page.getByRole('button', { name: 'Open task board' }).click();
  const drawer = page.getByRole('dialog', { name: 'Task board' });
  await expect(drawer).toHaveAttribute('data-container', 'drawer');
  const todo = drawer.getByRole('region', { name: 'To do' });
  await expect(todo.getByText('water the plants')).toBeVisible();

  await drawer.getByRole('textbox', { name: 'New task' }).fill('buy milk');
  await drawer.getByRole('button', { name: 'Add' }).click();
  await expect(todo.getByText('buy milk')).toBeVisible();
  await drawer.getByRole('button', { name: 'Move “water the plants” to Doing' }).click();
  await expect(
    drawer.getByRole('region', { name: 'Doing' }).getByText('water the plants'),
  ).toBeVisible();
  await drawer.getByRole('button', { name: 'Delete “buy milk”' }).click();
  await expect(drawer.getByText('buy milk')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/widget-tasks-drawer.png' });

  await page.reload();
  const reloaded = page.getByRole('dialog', { name: 'Task board' });
  await expect(
    reloaded.getByRole('region', { name: 'Doing' }).getByText('water the plants'),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  // The model reads the board as the human left it.
  await send(page, 'list my tasks');
  await expect(
    page
      .getByRole('list', { name: 'Transcript' })
      .getByText('Here’s your task board — Doing: “water the plants” (t1).'),
  ).toBeVisible();
});

test('a chart opens full screen and a table in a modal, filterable', async ({ page }) => {
  await startChat(page, 'plot the squares of 1 to 5');
  const chartButton = page.getByRole('button', { name: /^Open chart/ });
  await chartButton.click();
  const chart = page.getByRole('dialog', { name: 'Chart' });
  await expect(chart).toHaveAttribute('data-container', 'fullscreen');
  await expect(chart.getByRole('img').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/widget-chart-fullscreen.png' });
  await page.keyboard.press('Escape');
  await expect(chartButton).toBeFocused();

  // The button came mid-turn; the next prompt waits for the answer to end.
  await turnEnded(page);
  await send(page, 'show a table of the planets');
  await page.getByRole('button', { name: /^Open table/ }).click();
  const table = page.getByRole('dialog', { name: 'Table' });
  await expect(table).toHaveAttribute('data-container', 'modal');
  await table.getByRole('searchbox', { name: 'Filter rows' }).fill('mars');
  await expect(table.getByRole('row')).toHaveCount(2);
  await page.screenshot({ path: 'test-results/widget-table-modal.png' });
});

test('the task board keeps its state for a reader, read-only, and changes live', async ({
  page,
  stranger: reader,
}) => {
  await startChat(page, 'add a task: water the plants');
  await turnEnded(page);
  await page.getByRole('button', { name: 'Open task board' }).click();
  // Escape closes the board once it is open, not while its opening is still under way.
  await expect(page.getByRole('dialog', { name: 'Task board' })).toBeVisible();
  const url = page.url();
  await page.keyboard.press('Escape');
  await shareWith(page, reader, url);
  const board = reader.getByRole('dialog', { name: 'Task board' });
  await expect(board.getByRole('region', { name: 'To do' })).toContainText('water the plants');
  await expect(board.getByRole('textbox', { name: 'New task' })).toHaveCount(0);
  await expect(board.getByRole('button', { name: 'Delete “water the plants”' })).toBeDisabled();

  await page.getByRole('button', { name: 'Open task board' }).click();
  await page
    .getByRole('dialog', { name: 'Task board' })
    .getByRole('button', { name: 'Move “water the plants” to Doing' })
    .click();
  await expect(board.getByRole('region', { name: 'Doing' })).toContainText('water the plants');
  await reader.screenshot({ path: 'test-results/widget-tasks-reader-live.png' });
});

test('the table keeps the owner’s sort and filter; a reader sees them, live', async ({
  page,
  stranger: reader,
}) => {
  await startChat(page, 'show a table of the planets');
  await turnEnded(page);
  await page.getByRole('button', { name: /^Open table/ }).click();
  const table = page.getByRole('dialog', { name: 'Table' });
  const diameter = table.getByRole('columnheader', { name: /Diameter/ });
  await diameter.getByRole('button').click();
  await diameter.getByRole('button').click();
  await expect(diameter).toHaveAttribute('aria-sort', 'descending');
  await table.getByRole('searchbox', { name: 'Filter rows' }).fill('giant');
  await expect(table.getByRole('row')).toHaveCount(5);
  await expect(table.getByRole('row').nth(1)).toContainText('Jupiter');

  const url = page.url();
  // The filter is kept once typing pauses.
  await expect
    .poll(async () => {
      const response = await page.request.get(
        `/api/sessions/${url.split('/c/')[1]?.split('?')[0]}`,
      );
      return JSON.stringify((await response.json()).widgetStates);
    })
    .toContain('"filter":"giant"');
  await page.reload();
  const reloaded = page.getByRole('dialog', { name: 'Table' });
  await expect(reloaded.getByRole('columnheader', { name: /Diameter/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(reloaded.getByRole('searchbox', { name: 'Filter rows' })).toHaveValue('giant');

  await page.keyboard.press('Escape');
  await shareWith(page, reader, url);
  const seen = reader.getByRole('dialog', { name: 'Table' });
  await expect(seen.getByRole('searchbox', { name: 'Filter rows' })).toHaveValue('giant');
  await expect(seen.getByRole('row')).toHaveCount(5);

  await page.getByRole('button', { name: /^Open table/ }).click();
  await page
    .getByRole('dialog', { name: 'Table' })
    .getByRole('columnheader', { name: /Planet/ })
    .getByRole('button')
    .click();
  await expect(seen.getByRole('columnheader', { name: /Planet/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await reader.screenshot({ path: 'test-results/widget-table-reader-live.png' });
});

test('the chart keeps the kind the owner picks; a reader sees it, read-only, live', async ({
  page,
  stranger: reader,
}) => {
  await startChat(page, 'plot the squares of 1 to 5');
  await turnEnded(page);
  await page.getByRole('button', { name: /^Open chart/ }).click();
  const chart = page.getByRole('dialog', { name: 'Chart' });
  await chart.getByText('bar', { exact: true }).click();
  await expect(chart.getByRole('radio', { name: 'bar' })).toBeChecked();
  const url = page.url();
  await page.reload();
  await expect(
    page.getByRole('dialog', { name: 'Chart' }).getByRole('radio', { name: 'bar' }),
  ).toBeChecked();

  await page.keyboard.press('Escape');
  await shareWith(page, reader, url);
  const seen = reader.getByRole('dialog', { name: 'Chart' });
  await expect(seen.getByRole('radio', { name: 'bar' })).toBeChecked();
  await expect(seen.getByRole('radio', { name: 'line' })).toBeDisabled();
  await page.getByRole('button', { name: /^Open chart/ }).click();
  await page.getByRole('dialog', { name: 'Chart' }).getByText('scatter', { exact: true }).click();
  await expect(seen.getByRole('radio', { name: 'scatter' })).toBeChecked();
  await reader.screenshot({ path: 'test-results/widget-chart-reader-live.png' });
});
