import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import {
  chatAnswered,
  expect,
  failNextTurn,
  highlighted,
  MARKDOWN_ANSWER,
  makePublic,
  startChat,
  test,
  turnEnded,
} from './fixtures';

// Every main screen at a desktop's and a phone's size, light and dark: a screenshot under
// test-results/look/ to look at, and an axe-core scan that must find nothing.

test.describe.configure({ timeout: 90_000 });

const SIZES = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
type Size = keyof typeof SIZES;
const THEMES = ['light', 'dark'] as const;

/**
 * Waits until no CSS animation or transition runs (a fading dialog would fool the scan) and the
 * tab has its title (Next puts the page's metadata back after a refresh, such as a share's).
 */
async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      document.title !== '' &&
      document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

// A popup (Radix portals it to the end of <body>, hiding the rest from assistive technology
// while open) is outside every landmark by design: axe's "region" rule, which wants all content
// in landmarks, exempts dialogs but not menus. The popup gets every other rule.
const POPUP = '[data-radix-popper-content-wrapper]';

async function scan(page: Page) {
  const rest = await new AxeBuilder({ page }).exclude(POPUP).analyze();
  const popups = (await page.locator(POPUP).count())
    ? await new AxeBuilder({ page }).include(POPUP).disableRules(['region']).analyze()
    : { violations: [] };
  return [...rest.violations, ...popups.violations];
}

/**
 * Shows the screen in each size and theme, shoots it and scans it. `open` (re)opens what the
 * screen shows, in that size, when a size change cannot keep it open (a menu in the sidebar).
 */
async function look(page: Page, name: string, open?: (size: Size) => Promise<void>) {
  const found: string[] = [];
  for (const size of Object.keys(SIZES) as Size[]) {
    for (const theme of THEMES) {
      await page.setViewportSize(SIZES[size]);
      await page.emulateMedia({ colorScheme: theme });
      if (open) await open(size);
      await settled(page);
      await page.screenshot({ path: `test-results/look/${name}-${size}-${theme}.png` });
      for (const violation of await scan(page)) {
        for (const node of violation.nodes) {
          found.push(`${size} ${theme}: ${violation.id} at ${node.target}: ${node.failureSummary}`);
        }
      }
    }
  }
  expect(found).toEqual([]);
}

test('home', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await look(page, 'home');
});

test('a transcript with a table and a code block', async ({ page }) => {
  const transcript = await chatAnswered(page, 'Which inner planet is smallest?', MARKDOWN_ANSWER);
  await expect(transcript.getByRole('table')).toBeVisible();
  await expect(transcript.locator('pre').first()).toContainText('toSorted');
  await expect(highlighted(page)).toBeVisible();
  await look(page, 'transcript');
});

const WIDGETS = [
  { name: 'counter', prompt: 'Show me a counter starting at 3', button: 'Open counter' },
  { name: 'tasks', prompt: 'Add a task: write the release notes', button: 'Open task board' },
  { name: 'chart', prompt: 'Plot the squares of 1 to 10', button: /^Open chart/ },
  { name: 'table', prompt: 'Show a table of the planets', button: /^Open table/ },
];

for (const widget of WIDGETS) {
  test(`the ${widget.name} widget, open`, async ({ page }) => {
    await startChat(page, widget.prompt);
    await turnEnded(page);
    await page.getByRole('button', { name: widget.button }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await look(page, `widget-${widget.name}`);
  });
}

test('the sidebar’s row menu, open', async ({ page }) => {
  await startChat(page, 'What is 12 * (3 + 4)?');
  await turnEnded(page);
  const url = page.url();
  await look(page, 'row-menu', async (size) => {
    await page.goto(url);
    if (size === 'phone') await page.getByRole('button', { name: 'Open sessions' }).click();
    await page
      .getByRole('button', { name: 'Actions for What is 12 * (3 + 4)?' })
      .filter({ visible: true })
      .click();
    await expect(page.getByRole('menu')).toBeVisible();
  });
});

test('a tool card, open', async ({ page }) => {
  await startChat(page, 'What is 12 * (3 + 4)?');
  await turnEnded(page);
  const card = page.getByRole('group', { name: 'calculate tool call' });
  await card.getByRole('button').click();
  await expect(card.getByRole('figure', { name: 'Sent to the model' })).toContainText('84');
  await look(page, 'tool-card-open');
});

test('the share dialog', async ({ page }) => {
  await startChat(page, 'What is 12 * (3 + 4)?');
  await turnEnded(page);
  await makePublic(page);
  await look(page, 'share');
});

test('the prompt before an external link', async ({ page }) => {
  await chatAnswered(
    page,
    'Where is the guide?',
    'The guide is at [the docs](https://example.com/guide).',
  );
  await page.getByRole('button', { name: /the docs/ }).click();
  const prompt = page.getByRole('dialog', { name: 'Open external link?' });
  await expect(prompt).toContainText('https://example.com/guide');
  await look(page, 'link-prompt');
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: /the docs/ })).toBeFocused();
});

test('a failed turn', async ({ page }) => {
  await failNextTurn(page, 'The model provider failed (HTTP 503). Overloaded');
  await startChat(page, 'what is 6 * 7');
  await turnEnded(page);
  await expect(page.getByRole('alert').filter({ hasText: 'HTTP 503' })).toBeVisible();
  await look(page, 'error');
});
