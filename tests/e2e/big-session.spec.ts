import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { freePort, type NextServer, startNext } from '../helpers/next-server';
import { type SeededSessions, seedSessions } from '../helpers/seeded-sessions';
import { expect, highlighted, hydrated, test } from './fixtures';

// Issue 14: a session of 1,000 messages (500 turns, each answer with a tool call, a list and a
// code block) opens on its newest messages and loads earlier ones as the reader scrolls up.
// Seeded straight into the database before the server opens it: 500 turns through the API
// would take minutes.

let app: NextServer;
let seeded: SeededSessions;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const secret = randomBytes(32).toString('hex');
  dataDir = mkdtempSync(join(tmpdir(), 'quanta-big-'));
  seeded = seedSessions(dataDir, secret, [1000]);
  app = await startNext({
    port: await freePort(),
    env: { QUANTA_DATA_DIR: dataDir, QUANTA_SECRET: secret },
  });
});

test.afterAll(async () => {
  await app?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const path = () => `${app.url}/c/${seeded.sessions[0]?.id}`;
const transcript = (page: Page) => page.getByRole('list', { name: 'Transcript' });
/** The last line of the answer of turn `n` (1–500). */
const answerEnd = (page: Page, n: number) =>
  transcript(page).getByText(`That is all there is to it for question ${n}.`, { exact: true });

/** Opens the session as its owner. */
async function open(page: Page) {
  await page.context().addCookies([{ name: 'quanta_id', value: seeded.cookie, url: app.url }]);
  await page.goto(path());
  await expect(answerEnd(page, 500)).toBeInViewport();
  // The server renders the button too: a key pressed before React hydrated it does nothing.
  await hydrated(page.getByRole('button', { name: 'Load earlier messages' }));
}

/** Scrolls the transcript to its top with the mouse wheel, as a reader would. */
async function scrollToTop(page: Page) {
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.mouse.move(width / 2, height / 2);
  await page.mouse.wheel(0, -1_000_000);
}

test('a 1,000-message session opens on its newest messages in under 300 KB of HTML', async ({
  page,
}) => {
  const html = await (
    await fetch(path(), { headers: { cookie: `quanta_id=${seeded.cookie}` } })
  ).text();
  expect(Buffer.byteLength(html)).toBeLessThan(300 * 1024);
  // The newest messages only: the page holds none of the first turns.
  expect(html).toContain('That is all there is to it for question 500.');
  expect(html).not.toContain('Question 450:');

  // The most rows the transcript ever holds while the page opens and hydrates.
  await page.addInitScript(() => {
    const seen = window as Window & { mostRows?: number };
    seen.mostRows = 0;
    new MutationObserver(() => {
      const rows = document.querySelectorAll('ol[aria-label="Transcript"] > li').length;
      seen.mostRows = Math.max(seen.mostRows ?? 0, rows);
    }).observe(document, { childList: true, subtree: true });
  });
  await open(page);
  // Virtualised: only the rows in and near the view are ever mounted, not the 50 loaded.
  const mostRows = await page.evaluate(() => (window as Window & { mostRows?: number }).mostRows);
  console.log(`rows mounted while opening, at most: ${mostRows}`);
  expect(mostRows).toBeLessThan(12);
});

test('opening it paints its newest line, never raw markdown or a row without its answer, and moves no row', async ({
  page,
}) => {
  // What each painted frame shows, from the first: an answer's markdown as raw text (a heading's
  // "## " or a fence; innerText leaves out what is not shown), how many rows and answers'
  // headings are shown in the scroller's view, whether the transcript's end is in it, and
  // whether React has hydrated the page.
  await page.addInitScript(`
    window.frames_ = [];
    const look = () => {
      const list = document.querySelector('ol[aria-label="Transcript"]');
      const scroller = list?.closest('.overflow-y-auto');
      if (list && scroller) {
        const view = scroller.getBoundingClientRect();
        const shown = (element) => {
          const box = element.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom && box.height > 0 &&
            element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
        };
        const text = list.innerText;
        const composer = document.querySelector('textarea');
        window.frames_.push({
          raw: /^## Answer/m.test(text) || text.includes('\x60\x60\x60'),
          rows: [...list.children].filter(shown).length,
          headings: [...list.querySelectorAll('h2')].filter(shown).length,
          atEnd: scroller.firstElementChild.getBoundingClientRect().bottom <= view.bottom + 2,
          hydrated: Object.keys(composer ?? {}).some((key) => key.startsWith('__reactProps')),
          jump: document.querySelector('button[aria-label="Jump to latest"]') !== null,
        });
      }
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
    // A shift counts unless all it moved is known to be outside the transcript: a node gone
    // from the page by the time the entry is read (a server row virtua replaced) counts.
    window.rowShifts_ = [];
    const outside = (node) =>
      node?.isConnected &&
      !(node.nodeType === 1 ? node : node.parentElement)?.closest('ol[aria-label="Transcript"]');
    new PerformanceObserver((list) => {
      for (const shift of list.getEntries())
        if (!shift.sources.every(({ node }) => outside(node)))
          window.rowShifts_.push(Math.round(shift.startTime) + ' ms: ' + shift.value.toFixed(4));
    }).observe({ type: 'layout-shift', buffered: true });`);
  await open(page);
  // The markdown renderer and the highlighter have loaded, and the virtualised rows are in.
  await expect(highlighted(page)).toBeVisible();
  await page.waitForTimeout(500);
  type Frame = {
    raw: boolean;
    rows: number;
    headings: number;
    atEnd: boolean;
    hydrated: boolean;
    jump: boolean;
  };
  const frames = await page.evaluate(
    () => (window as Window & { frames_?: Frame[] }).frames_ ?? [],
  );
  expect(frames.length).toBeGreaterThan(10);
  // No row moved: Chromium's layout shifts, none of the transcript's (a code block out of view
  // laid out at a placeholder height, then at its own, moved them).
  expect(
    await page.evaluate(() => (window as Window & { rowShifts_?: string[] }).rowShifts_),
  ).toEqual([]);
  expect(frames.filter(({ raw }) => raw)).toEqual([]);
  // Every frame that shows rows shows an answer (the view always holds one): the first paint's,
  // which the server rendered in place, and the rows virtua mounts again before the markdown
  // renderer has loaded.
  expect(frames.some(({ headings }) => headings > 0)).toBe(true);
  expect(frames.filter(({ rows, headings }) => rows > 0 && headings === 0)).toEqual([]);
  // The server's rows are taller than the view: every frame that shows rows shows their end,
  // not their start, before the page hydrates, as virtua takes them over and once it has; and
  // the view keeps following the newest line (a reader who never scrolled is never offered to
  // jump to it).
  expect(frames.filter(({ rows, hydrated }) => rows > 0 && !hydrated).length).toBeGreaterThan(0);
  expect(frames.filter(({ rows, atEnd }) => rows > 0 && !atEnd)).toEqual([]);
  expect(frames.filter(({ jump }) => jump)).toEqual([]);
  // At the end is within 2 px: use-stick-to-bottom scrolls to 1 px short of it.
  const atEnd = () =>
    transcript(page).evaluate((list) => {
      const scroller = list.closest('.overflow-y-auto') as Element;
      const end = (scroller.firstElementChild as Element).getBoundingClientRect().bottom;
      return end <= scroller.getBoundingClientRect().bottom + 2;
    });
  await expect.poll(atEnd).toBe(true);
});

test('its rows stand apart once virtualised, as the server laid them out', async ({ page }) => {
  await open(page);
  // virtua's rows, which it places (the server's have no style).
  await expect(transcript(page).locator('li[style]').first()).toBeVisible();
  // Once virtua has measured them (it places a row by its guess until then), none overlaps the
  // one above it.
  const overlaps = () =>
    transcript(page).evaluate((list) => {
      const boxes = [...list.children]
        .map((row) => row.getBoundingClientRect())
        .sort((one, other) => one.top - other.top);
      if (boxes.length < 2) return ['fewer than two rows'];
      return boxes
        .slice(1)
        .filter((box, index) => box.top < (boxes[index] as DOMRect).bottom - 1)
        .map(({ top, bottom }) => `${top}–${bottom}`);
    });
  await expect.poll(overlaps).toEqual([]);
});

/** Where the transcript is scrolled, and the start of each row in view: printed on a failure. */
function viewState(page: Page) {
  return transcript(page).evaluate((list) => {
    const scroller = list.closest('.overflow-y-auto');
    if (!scroller) return 'no scroller';
    const view = scroller.getBoundingClientRect();
    const rows = [...list.children]
      .filter((row) => {
        const box = row.getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom;
      })
      .map((row) => row.textContent?.slice(0, 30));
    return JSON.stringify({ scrollTop: scroller.scrollTop, height: scroller.scrollHeight, rows });
  });
}

test('on a CPU eight times slower, the reader’s place is kept to the pixel', async ({ page }) => {
  await open(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  // Scrolled to the top, the page's first row (turn 476's question) stands where the list
  // starts; it must stay there as the page before comes in above it.
  const listStart = await transcript(page).evaluate(
    (list) => (list.parentElement as HTMLElement).offsetTop,
  );
  await scrollToTop(page);
  await expect(answerEnd(page, 475)).toBeAttached();
  const question = transcript(page).getByText('Question 476:');
  const moved = () =>
    question.evaluate((element, start) => {
      const scroller = element.closest('.overflow-y-auto') as Element;
      const row = element.closest('li') as Element;
      const top = row.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
      return Math.abs(top - start);
    }, listStart);
  // Where it was once the rows above are measured, and still there a second later.
  await expect.poll(moved, { timeout: 10_000 }).toBeLessThan(2);
  await page.waitForTimeout(1_000);
  expect(await moved()).toBeLessThan(2);
});

test('the transcript keeps its pointer events while the view scrolls', async ({ page }) => {
  await open(page);
  // virtua's list, which replaces the server's once the page has hydrated.
  await expect(transcript(page).locator('li[style]').first()).toBeVisible();
  // The list's pointer events at each scroll of its view, as a streaming answer scrolls it
  // too: switched off and on, they restyle every element of the transcript.
  await transcript(page).evaluate((list) => {
    const seen: string[] = [];
    (window as unknown as { pointerEvents: string[] }).pointerEvents = seen;
    list.closest('.overflow-y-auto')?.addEventListener('scroll', () =>
      requestAnimationFrame(() => {
        const now = document.querySelector('ol[aria-label="Transcript"]');
        seen.push(now ? getComputedStyle(now).pointerEvents : 'no list');
      }),
    );
  });
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.mouse.move(width / 2, height / 2);
  for (let step = 0; step < 5; step++) {
    await page.mouse.wheel(0, -400);
    await page.waitForTimeout(30);
  }
  const seen = () =>
    page.evaluate(() => (window as unknown as { pointerEvents: string[] }).pointerEvents);
  await expect.poll(async () => (await seen()).length).toBeGreaterThan(3);
  expect(new Set(await seen())).toEqual(new Set(['auto']));
});

test.describe('scrolling up', () => {
  // This test failed once in CI: on a slow machine the rows that came in above were measured
  // after virtua stopped correcting for them, and pushed the page's first turn off the view
  // (the test above reproduces it, and fails without useKeptPlace). A failure prints where the
  // view was.
  test.afterEach(async ({ page }, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) console.log('view:', await viewState(page));
  });

  test('scrolling to the top loads earlier messages, keeping the reader’s place', async ({
    page,
  }) => {
    await open(page);
    // The page's first turn (476) stays in view while the page before it comes in above.
    await scrollToTop(page);
    await expect(answerEnd(page, 475)).toBeAttached();
    await expect(transcript(page).getByText('Question 476:')).toBeInViewport();

    // And on, a page at a time, to the session's first message.
    for (let last = 450; last > 0; last -= 25) {
      await scrollToTop(page);
      await expect(answerEnd(page, last)).toBeAttached();
    }
    await scrollToTop(page);
    await expect(transcript(page).getByText('Question 1:')).toBeInViewport();
    await expect(page.getByRole('button', { name: /earlier messages/ })).toHaveCount(0);
  });
});

test('a keyboard user loads earlier messages with the button above the first', async ({ page }) => {
  await open(page);
  const load = page.getByRole('button', { name: 'Load earlier messages' });
  const loaded = page.waitForResponse(
    (response) => response.url().includes('/messages?before=') && response.ok(),
  );
  // Focus, then Enter, on the button (the composer takes focus when the page opens): the focus
  // brings the button, and the page's first turn under it, into view.
  await load.press('Enter');
  await loaded;
  // The page before arrived above, off the view: the reader's place and focus stay.
  await expect(answerEnd(page, 475)).toBeAttached();
  await expect(load).toBeFocused();
  await expect(transcript(page).getByText('Question 476:')).toBeInViewport();
});

test('the big session on a desktop, light and dark, and on a phone', async ({ browser }) => {
  const shots = [
    { name: 'desktop-light', viewport: { width: 1440, height: 900 }, colorScheme: 'light' },
    { name: 'desktop-dark', viewport: { width: 1440, height: 900 }, colorScheme: 'dark' },
    { name: 'phone-light', viewport: { width: 390, height: 844 }, colorScheme: 'light' },
  ] as const;
  for (const { name, viewport, colorScheme } of shots) {
    const context = await browser.newContext({ viewport, colorScheme });
    const page = await context.newPage();
    await open(page);
    await expect(highlighted(page)).toBeVisible();
    await page.screenshot({ path: `test-results/big-session/newest-${name}.png` });
    await scrollToTop(page);
    await expect(answerEnd(page, 475)).toBeAttached();
    await page.screenshot({ path: `test-results/big-session/earlier-${name}.png` });
    await context.close();
  }
});
