import type { Page } from '@playwright/test';
import { type FakeOpenAI, modelEnv, reply, startFakeOpenAI } from '../helpers/fake-openai';
import { freePort, type NextServer, startNext } from '../helpers/next-server';
import {
  composer,
  expect,
  notReloaded,
  send,
  shareWith,
  sidebar,
  startChat,
  test,
  turnEnded,
} from './fixtures';

// Issue 13: a running answer survives whatever the browser does meanwhile. The scripted model
// answers "hold" with its first words and writes the rest only when the test releases it, so
// every step below happens while the turn is known to run; "silent" answers nothing until then.

const MODEL = 'fake-model';
const FIRST = ['I am ', 'still ', 'answering.'];
const REST = [' Here ', 'is ', 'the ', 'rest.'];
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
  app = await startNext({ port: await freePort(), env: modelEnv(fake, MODEL) });
});

test.afterEach(() => fake.release());

test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

const transcript = (page: Page) => page.getByRole('list', { name: 'Transcript' });
/** The `n`th message of the transcript (0: the first question). */
const message = (page: Page, n: number) => transcript(page).locator(':scope > li').nth(n);
const runningNote = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'A turn is running: wait for its answer' });

/** A new chat whose first turn has ended. */
async function start(page: Page) {
  await startChat(page, 'hello', app.url);
  await expect(message(page, 1)).toContainText('1 + 1 = 2.');
  await turnEnded(page);
}

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
  await expect(message(page, 3)).not.toContainText('rest.');
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
  await expect(message(stranger, 3)).not.toContainText('rest.');
  await stranger.screenshot({ path: 'test-results/resume-reader-streaming.png' });
  fake.release();
  await expect(message(stranger, 3)).toContainText(WHOLE);
  expect(await notReloaded(stranger)).toBe(true);
  await turnEnded(page);
});
