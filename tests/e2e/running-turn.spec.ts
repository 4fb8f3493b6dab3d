import type { Page } from '@playwright/test';
import { type FakeOpenAI, modelEnv, reply, startFakeOpenAI } from '../helpers/fake-openai';
import { freePort, type NextServer, startNext } from '../helpers/next-server';
import {
  composer,
  expect,
  notReloaded,
  openListening,
  send,
  shareWith,
  sidebar,
  startChat,
  test,
  turnEnded,
} from './fixtures';

// A turn that is running for exactly as long as a test needs: the scripted model answers a
// prompt that says "hold" with its first words, then waits for the test's release() before it
// writes the rest ("silent": no words before it). Nothing here races the end of an answer.

const MODEL = 'fake-model';
const FIRST = ['I am ', 'still ', 'answering.'];
const REST = [' The end.'];
const WHOLE = [...FIRST, ...REST].join('');

let fake: FakeOpenAI;
let app: NextServer;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fake = await startFakeOpenAI();
  fake.respond(({ body }) => {
    const asked = JSON.stringify(body.messages.at(-1)?.content ?? '');
    if (asked.includes('hold')) return reply.held(FIRST, REST);
    if (asked.includes('silent')) return reply.held([], REST);
    return reply.text('Sure: ', '1 + 1 = 2.');
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

const transcript = (page: Page) => page.getByRole('list', { name: 'Transcript' });
/** The `n`th message of the transcript (0: the first question). */
const message = (page: Page, n: number) => transcript(page).locator(':scope > li').nth(n);

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

// Issue 13: a running answer survives whatever the browser does meanwhile.

const runningNote = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'A turn is running: wait for its answer' });

/** The answer as the transcript shows it: all of it, once, and nothing else after it. */
async function expectWholeAnswer(page: Page, n: number) {
  await expect(message(page, n)).toContainText(WHOLE);
  await turnEnded(page);
  await expect(transcript(page).locator(':scope > li')).toHaveCount(n + 1);
  // Replayed words are not shown twice.
  expect((await message(page, n).textContent())?.split('I am still answering.')).toHaveLength(2);
}

test('a reload in the middle of an answer continues it word by word to its end', async ({
  page,
}) => {
  await start(page);
  await send(page, 'hold, tell me more');
  await expect(message(page, 3)).toContainText('I am still answering.');
  await page.reload();
  // The words written before the reload are there at once, and the turn is shown running.
  await expect(message(page, 3)).toContainText('I am still answering.');
  await expect(runningNote(page)).toBeVisible();
  await expect(composer(page)).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await page.screenshot({ path: 'test-results/resume-after-reload.png' });
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  fake.release();
  await expectWholeAnswer(page, 3);
  // The rest streamed into this page: it was not reloaded again to show it.
  expect(await notReloaded(page)).toBe(true);
  await expect(composer(page)).toBeEnabled();
});

test('leaving for another chat and coming back (sidebar, then Back) resumes the answer', async ({
  page,
}) => {
  await start(page);
  const first = page.url();
  await startChat(page, 'hello again', app.url);
  await turnEnded(page);
  const second = page.url();
  await send(page, 'hold on');
  await expect(message(page, 3)).toContainText('I am still answering.');

  const go = (url: string) =>
    sidebar(page)
      .locator(`a[href="${new URL(url).pathname}"]`)
      .first()
      .click();
  await go(first);
  await expect(page).toHaveURL(first);
  await expect(message(page, 1)).toContainText('1 + 1 = 2.');
  await go(second);
  await expect(page).toHaveURL(second);
  await expect(message(page, 3)).toContainText('I am still answering.');
  await expect(runningNote(page)).toBeVisible();

  await go(first);
  await expect(page).toHaveURL(first);
  await page.goBack();
  await expect(page).toHaveURL(second);
  await expect(message(page, 3)).toContainText('I am still answering.');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  fake.release();
  await expectWholeAnswer(page, 3);
});

test('Stop on a resumed turn says "Stopped" at once and keeps what was written', async ({
  page,
}) => {
  await start(page);
  await send(page, 'hold it there');
  await expect(message(page, 3)).toContainText('I am still answering.');
  await page.reload();
  await expect(runningNote(page)).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(message(page, 3).getByText('Stopped', { exact: true })).toBeVisible();
  await turnEnded(page);
  await expect(message(page, 3)).toContainText('I am still answering.');
  await expect(message(page, 3)).not.toContainText('The end.');
  await page.screenshot({ path: 'test-results/resume-stopped.png' });
});

test('a Stop before the first word says "Stopped before answering"', async ({ page }) => {
  await start(page);
  await send(page, 'stay silent');
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  await page.reload();
  await expect(runningNote(page)).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByText('Stopped before answering')).toBeVisible();
  await turnEnded(page);
  // Stored so: a reload says the same.
  await page.reload();
  await expect(page.getByText('Stopped before answering')).toBeVisible();
});

test('a reader of the public link sees the answer arrive word by word', async ({
  page,
  stranger,
}) => {
  await start(page);
  await shareWith(page, stranger, page.url());
  await send(page, 'hold for the reader');
  await expect(message(stranger, 3)).toContainText('I am still answering.');
  await expect(message(stranger, 3)).not.toContainText('The end.');
  await stranger.screenshot({ path: 'test-results/resume-reader-streaming.png' });
  fake.release();
  await expect(message(stranger, 3)).toContainText(WHOLE);
  expect(await notReloaded(stranger)).toBe(true);
  await turnEnded(page);
});

test('a reader sees "Stopped" as soon as the owner stops the turn, without a reload', async ({
  page,
  stranger,
}) => {
  await start(page);
  await shareWith(page, stranger, page.url());
  await send(page, 'hold, then stop');
  await expect(message(stranger, 3)).toContainText('I am still answering.');
  await page.getByRole('button', { name: 'Stop' }).click();
  // Only the turn's last chunk tells the reader how it ended: it pressed nothing.
  await expect(message(stranger, 3).getByText('Stopped', { exact: true })).toBeVisible();
  await expect(message(stranger, 3)).not.toContainText('The end.');
  expect(await notReloaded(stranger)).toBe(true);
});
