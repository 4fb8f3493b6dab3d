import type { Page } from '@playwright/test';
import { type FakeOpenAI, modelEnv, reply, startFakeOpenAI } from '../helpers/fake-openai';
import { freePort, type NextServer, startNext } from '../helpers/next-server';
import {
  composer,
  expect,
  notReloaded,
  openListening,
  send,
  startChat,
  test,
  turnEnded,
} from './fixtures';

// A turn that is running for exactly as long as a test needs: the scripted model answers a
// prompt that says "hold" with its first words, then waits for the test's release() before it
// writes the rest. Nothing here races the end of an answer.

const MODEL = 'fake-model';
const FIRST = ['I am ', 'still ', 'answering.'];
const REST = [' The end.'];

let fake: FakeOpenAI;
let app: NextServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fake = await startFakeOpenAI();
  fake.respond(({ body }) => {
    const asked = JSON.stringify(body.messages.at(-1)?.content ?? '');
    return asked.includes('hold') ? reply.held(FIRST, REST) : reply.text('Sure: ', '1 + 1 = 2.');
  });
  app = await startNext({
    port: await freePort(),
    env: modelEnv(fake, MODEL),
  });
});

test.afterEach(() => fake.release());

test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

/** The `n`th message of the transcript (0: the first question). */
const message = (page: Page, n: number) =>
  page.getByRole('list', { name: 'Transcript' }).locator(':scope > li').nth(n);

/** A new chat whose first turn has ended. */
async function start(page: Page) {
  await startChat(page, 'hello', app.url);
  await expect(message(page, 1)).toContainText('1 + 1 = 2.');
  await turnEnded(page);
}

test('a prompt refused while another tab runs a turn can be retried', async ({ page }) => {
  await start(page);
  const other = await page.context().newPage();
  // A tab that has not heard of the other's turn (live events would disable its Send).
  await other.route('**/api/sessions/*/events', (route) => route.abort());
  await other.goto(page.url());
  await send(page, 'hold on');
  await expect(message(page, 3)).toContainText('I am still answering.');
  await send(other, 'what is 1 + 1');
  await expect(other.getByRole('alert').filter({ hasText: 'already running' })).toContainText(
    'A turn is already running here: wait or stop it.',
  );
  await other.screenshot({ path: 'test-results/chat-turn-active.png' });
  fake.release();
  await turnEnded(page);
  await other.getByRole('button', { name: 'Retry' }).click();
  await expect(other.getByRole('list', { name: 'Transcript' })).toContainText('1 + 1 = 2.');
  await other.close();
});

test('Stop ends a running turn and keeps what it wrote', async ({ page }) => {
  await start(page);
  await send(page, 'hold and tell me about yourself');
  await expect(message(page, 3)).toContainText('I am still answering.');
  await page.getByRole('button', { name: 'Stop' }).click();
  // Said at once, before the server has confirmed it.
  await expect(message(page, 3).getByText('Stopped', { exact: true })).toBeVisible();
  await expect(composer(page)).toBeFocused();
  await turnEnded(page);
  await page.reload();
  await expect(message(page, 3)).toContainText('I am still answering.');
  await expect(message(page, 3)).not.toContainText('The end.');
  await expect(message(page, 3).getByText('Stopped', { exact: true })).toBeVisible();
});

test('a Stop pressed before the turn has reached the server still stops it there', async ({
  page,
}) => {
  await start(page);
  // The next prompt takes a moment to reach the server; Stop is pressed meanwhile.
  await page.route('**/api/sessions/*/messages', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await send(page, 'hold and tell me about yourself');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(message(page, 3).getByText('Stopped', { exact: true })).toBeVisible();
  await expect(message(page, 3)).not.toContainText('The end.');
});

test('the owner’s other tab shows a running turn, holds Send, then shows the answer', async ({
  page,
}) => {
  await start(page);
  const tab = await page.context().newPage();
  await openListening(tab, page.url());
  await send(page, 'hold, tell me more');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();

  const note = tab
    .getByRole('status')
    .filter({ hasText: 'A turn is running: wait for its answer, or stop it.' });
  await expect(note).toBeVisible();
  await expect(composer(tab)).toBeDisabled();
  await tab.screenshot({ path: 'test-results/live-other-tab.png' });

  fake.release();
  await turnEnded(page);
  await expect(note).toHaveCount(0);
  await expect(composer(tab)).toBeEnabled();
  await expect(message(tab, 3)).toContainText('I am still answering. The end.');
  expect(await notReloaded(tab)).toBe(true);
  await tab.close();
});

test('a reload in the middle of a turn shows the turn running, then its whole answer', async ({
  page,
}) => {
  await start(page);
  await send(page, 'hold, tell me more');
  await expect(message(page, 3)).toContainText('I am still answering.');
  await page.reload();
  await expect(
    page.getByRole('status').filter({ hasText: 'A turn is running: wait for its answer' }),
  ).toBeVisible();
  fake.release();
  await expect(message(page, 3)).toContainText('I am still answering. The end.');
  await expect(composer(page)).toBeEnabled();
  await expect(page.getByRole('status').filter({ hasText: 'A turn is running' })).toHaveCount(0);
});
