import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
  type PlaywrightWorkerArgs,
  type Route,
} from '@playwright/test';
import { uiChunks } from '../helpers/ui-stream';

// What the e2e specs share: the extra pages a test may ask for, the steps of a chat in the
// browser, and the API calls the server-side specs make.

export { expect };

/**
 * Playwright's `test`, with two more pages, each in a browser context of its own that closes
 * when the test ends: `stranger`, someone else with none of the owner's cookies, and `phone`,
 * a dark-mode phone with a touch screen.
 */
export const test = base.extend<{ stranger: Page; phone: Page }>({
  stranger: async ({ browser }, provide) => {
    const context = await browser.newContext();
    await provide(await context.newPage());
    await context.close();
  },
  phone: async ({ browser }, provide) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      colorScheme: 'dark',
      hasTouch: true,
    });
    await provide(await context.newPage());
    await context.close();
  },
});

// In the browser.

const SESSION_PAGE = /\/c\/[A-Za-z0-9_-]{22}$/;

export const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });

/** Types `text` into the composer and sends it with Enter. */
export async function send(page: Page, text: string) {
  await hydrated(composer(page));
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/**
 * Stores an empty session ("New chat") from the page, as a script would, and opens it: the UI's
 * New chat stores nothing until the first message.
 */
export async function emptySession(page: Page) {
  await page.goto('/');
  const id = await page.evaluate(async () => {
    const response = await fetch('/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    return ((await response.json()) as { session: { id: string } }).session.id;
  });
  await page.goto(`/c/${id}`);
  await expect(page).toHaveURL(SESSION_PAGE);
}

/**
 * New sessions of the page's identity titled `titles`, in that order (the page must be the
 * app's); their ids.
 */
export async function titledSessions(page: Page, titles: string[]): Promise<string[]> {
  return page.evaluate(async (titles) => {
    const ids: string[] = [];
    for (const title of titles) {
      const response = await fetch('/api/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      ids.push(((await response.json()) as { session: { id: string } }).session.id);
    }
    return ids;
  }, titles);
}

/** Opens the ⋯ menu of the sidebar's row titled `title` and picks `action` in it. */
export async function rowAction(page: Page, title: string, action: 'Rename' | 'Share' | 'Delete') {
  await sidebar(page)
    .getByRole('button', { name: `Actions for ${title}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: action }).click();
}

export const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Sessions' });

/** Opens `home`, sends `text` as the first message and waits for the new session's page. */
export async function startChat(page: Page, text: string, home = '/') {
  await page.goto(home);
  await send(page, text);
  await expect(page).toHaveURL(SESSION_PAGE);
}

/** Waits until no turn is running: Send is back. */
export async function turnEnded(page: Page) {
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
}

/** Answers a routed request with these UI message stream chunks, as the server streams them. */
export function fulfillStream(route: Route, chunks: object[]) {
  return route.fulfill({
    headers: { 'content-type': 'text/event-stream' },
    body: `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`,
  });
}

/**
 * Lets the server run the real turn of a routed prompt to its end, then answers the browser
 * with the chunks `answer` makes of the real answer's id instead. The server said the real turn
 * ended (on the events stream) just before its stream ended: heard once this request is
 * answered, that would be a turn this tab did not read, and the page would catch up to the
 * server's real answer, so it is given time to arrive while the request is still open. The id
 * is the stored answer's, as a real stream's is: a later catch-up then updates the same row
 * rather than mounting a new one (which would close what the test opened in it).
 */
async function fulfillAfterRealTurn(route: Route, answer: (messageId: string) => object[]) {
  const real = await uiChunks(new Response(await (await route.fetch()).text())).rest();
  const messageId = real.find((chunk) => chunk.type === 'start')?.messageId;
  if (typeof messageId !== 'string') throw new Error('the real turn streamed no answer id');
  await new Promise((resolve) => setTimeout(resolve, 250));
  await fulfillStream(route, answer(messageId));
}

/**
 * Makes the next turn fail in the browser with `error` after "Half an ans": the server runs the
 * real turn, the browser is shown a provider failure instead, and the session the chat then
 * reloads has the failed answer (as the server stores a real failure).
 */
export async function failNextTurn(page: Page, error: string) {
  let failed = false;
  await page.route('**/api/sessions/*/messages', async (route) => {
    if (failed) return route.continue();
    failed = true;
    await fulfillAfterRealTurn(route, (messageId) => [
      { type: 'start', messageId, messageMetadata: { status: 'streaming' } },
      { type: 'start-step' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Half an ans' },
      { type: 'text-end', id: 't' },
      { type: 'error', errorText: error },
      { type: 'finish-step' },
      { type: 'finish', messageMetadata: { status: 'failed', error } },
    ]);
  });
  let caughtUp = false;
  await page.route('**/api/sessions/*', async (route) => {
    if (caughtUp || route.request().method() !== 'GET') return route.continue();
    caughtUp = true;
    const response = await route.fetch();
    const body = await response.json();
    const answer = body.messages.at(-1);
    body.messages[body.messages.length - 1] = {
      ...answer,
      parts: [{ type: 'text', text: 'Half an ans', state: 'done' }],
      metadata: { status: 'failed', error },
    };
    await route.fulfill({ response, json: body });
  });
}

/** An answer with the markdown people ask for most: a table and a code block. */
export const MARKDOWN_ANSWER = `Here are the inner planets, smallest first.

| Planet | Diameter (km) | Moons |
| --- | ---: | ---: |
| Mercury | 4,879 | 0 |
| Mars | 6,779 | 2 |
| Venus | 12,104 | 0 |
| Earth | 12,742 | 1 |

The sort, in TypeScript:

\`\`\`ts
const bySize = planets.toSorted((a, b) => a.diameter - b.diameter);
console.log(bySize.map((planet) => planet.name).join(', '));
\`\`\``;

/**
 * Waits until React has hydrated `element` (its props are on it): a click or key before that
 * reaches server-rendered HTML with no handler, and does nothing.
 */
export async function hydrated(element: Locator) {
  await expect
    .poll(() =>
      element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactProps'))),
    )
    .toBe(true);
}

/** A code token the highlighter coloured: a plain one's colour is `inherit`. */
export const highlighted = (page: Page) =>
  page
    .locator('[data-streamdown="code-block-body"] span[style*="--sdm-c"]:not([style*="inherit"])')
    .first();

/**
 * Starts a chat with `prompt` whose answer shows as `markdown`, and waits for the turn's end:
 * the server runs the real turn (it stores the prompt and titles the session), the browser is
 * shown this answer instead. Gives the transcript.
 */
export async function chatAnswered(page: Page, prompt: string, markdown: string) {
  await answerNextWith(page, markdown);
  await startChat(page, prompt);
  await turnEnded(page);
  return page.getByRole('list', { name: 'Transcript' });
}

/** Makes the next turn's answer `markdown` in the browser (see `chatAnswered`). */
async function answerNextWith(page: Page, markdown: string) {
  let answered = false;
  await page.route('**/api/sessions/*/messages', async (route) => {
    if (answered) return route.continue();
    answered = true;
    await fulfillAfterRealTurn(route, (messageId) => [
      { type: 'start', messageId },
      { type: 'start-step' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: markdown },
      { type: 'text-end', id: 't' },
      { type: 'finish-step' },
      { type: 'finish' },
    ]);
  });
}

/**
 * Makes the owner's open session public in its Share dialog, and leaves the dialog open once the
 * server has stored it and the dialog shows the link.
 */
export async function makePublic(page: Page) {
  await page.getByRole('button', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: 'Share session' });
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === 'PATCH' &&
      /\/api\/sessions\/[^/]+$/.test(new URL(response.url()).pathname),
  );
  await share.getByRole('checkbox', { name: 'Public link' }).check();
  expect((await saved).ok()).toBe(true);
  const { origin, pathname } = new URL(page.url());
  await expect(share.getByRole('textbox', { name: 'Share link' })).toHaveValue(
    `${origin}${pathname}`,
  );
}

/** Makes the owner's session public and opens `url` (of that session) in `reader`, listening. */
export async function shareWith(owner: Page, reader: Page, url: string) {
  await expect(owner.getByRole('dialog')).toHaveCount(0);
  await makePublic(owner);
  await owner.keyboard.press('Escape');
  await openListening(reader, url);
}

/** Opens `url` in `page` and waits until its live event stream is connected. */
export async function openListening(page: Page, url: string) {
  const listening = page.waitForResponse(
    (response) => /\/api\/sessions\/[^/]+\/events$/.test(response.url()) && response.ok(),
  );
  await page.goto(url);
  await listening;
  // A mark on the window that a reload would wipe.
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
}

/** Whether `page` still holds the mark openListening left: it was not reloaded since. */
export const notReloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded);

// Over the API.

export type SessionView = { id: string; title: string; visibility: string; turnActive: boolean };
export type Part = {
  type: string;
  text?: string;
  state?: string;
  output?: unknown;
  [key: string]: unknown;
};
export type Message = {
  id: string;
  role: string;
  parts: Part[];
  metadata: { status?: string; error?: string; model?: string } | null;
};
export type SessionWithMessages = { session: SessionView; messages: Message[] };
export type UiChunk = { type: string; [key: string]: unknown };

/** A request context on `baseURL` that acts as the identity `bearer` belongs to. */
export function apiAs(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  bearer: string,
): Promise<APIRequestContext> {
  return playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${bearer}` },
  });
}

export async function createSession(
  api: APIRequestContext,
  data: { title?: string } = {},
): Promise<SessionView> {
  const response = await api.post('/api/sessions', { data });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { session: SessionView }).session;
}

/** Posts a user message; reads the turn's UI message stream (SSE) to its end. */
export async function say(api: APIRequestContext, id: string, text: string): Promise<UiChunk[]> {
  const response = await api.post(`/api/sessions/${id}/messages`, {
    data: { message: { role: 'user', parts: [{ type: 'text', text }] } },
  });
  const body = await response.text();
  expect(response.status(), body).toBe(200);
  expect(response.headers()['content-type']).toContain('text/event-stream');
  const events = body
    .split('\n\n')
    .map((event) => event.trim())
    .filter(Boolean);
  expect(events.at(-1)).toBe('data: [DONE]');
  return events.slice(0, -1).map((event) => {
    expect(event.startsWith('data: '), event).toBe(true);
    return JSON.parse(event.slice('data: '.length)) as UiChunk;
  });
}

export async function read(api: APIRequestContext, id: string): Promise<SessionWithMessages> {
  const response = await api.get(`/api/sessions/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as SessionWithMessages;
}

/** The error texts a turn's stream carried. */
export function errors(chunks: UiChunk[]): unknown[] {
  return chunks.filter((chunk) => chunk.type === 'error').map((chunk) => chunk.errorText);
}

/** A message's text parts, joined. */
export function texts(message: Message | undefined): string {
  return (message?.parts ?? [])
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('');
}
