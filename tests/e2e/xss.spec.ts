import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { type FakeOpenAI, modelEnv, reply, startFakeOpenAI } from '../helpers/fake-openai';
import { freePort, type NextServer, startNext } from '../helpers/next-server';
import { expect, hydrated, startChat, test } from './fixtures';

// Hostile text from the model — in its answer, in tool arguments and results, in widget labels
// and widget data — rendered for the owner and for a reader of the public link: nothing runs,
// nothing loads from another origin, and the Content-Security-Policy is never even needed.

const MODEL = 'fake-model';

/** The vectors; every one that could load something points at the beacon, another origin. */
function corpus(beacon: string): string[] {
  const alert = 'alert(document.domain)';
  return [
    `<script>${alert}</script>`,
    `<script src="${beacon}/script.js"></script>`,
    `<img src="${beacon}/img.png">`,
    `<img src=x onerror="${alert}">`,
    `<img src="x" onerror="&#97;&#108;&#101;&#114;&#116;(1)">`,
    `<svg onload=${alert}>`,
    `<svg><script>${alert}</script></svg>`,
    `<svg><image href="${beacon}/svg-image.png"/></svg>`,
    `<svg><a xlink:href="javascript:${alert}"><text y="20">svg link</text></a></svg>`,
    `<svg><animate onbegin=${alert} attributeName=x dur=1s>`,
    `<iframe src="${beacon}/iframe"></iframe>`,
    `<iframe srcdoc="<script>${alert}</script>"></iframe>`,
    `<object data="${beacon}/object"></object>`,
    `<embed src="${beacon}/embed">`,
    `<link rel=stylesheet href="${beacon}/link.css">`,
    `<style>@import '${beacon}/import.css';</style>`,
    `<style>body{background:url(${beacon}/style-bg.png)}</style>`,
    `<div style="background:url(${beacon}/inline-bg.png)">styled</div>`,
    `<video src="${beacon}/video.mp4" autoplay></video>`,
    `<audio src="${beacon}/audio.mp3" autoplay></audio>`,
    `<video><source src="${beacon}/source.mp4"></video>`,
    `<img srcset="${beacon}/srcset.png 1x">`,
    `<picture><source srcset="${beacon}/picture.png"><img alt="p"></picture>`,
    `<table background="${beacon}/table-bg.png"><tr><td>cell</td></tr></table>`,
    `<body onload=${alert}>`,
    `<input autofocus onfocus=${alert}>`,
    `<details open ontoggle=${alert}>`,
    `<marquee onstart=${alert}>m</marquee>`,
    `<math><mtext><table><mglyph><style><img src=x onerror=${alert}>`,
    `<x onclick=${alert}>click me</x>`,
    `<a href="javascript:${alert}">html link</a>`,
    `<a href="&#106;avascript:${alert}">entity link</a>`,
    `<base href="${beacon}/base/">`,
    `<meta http-equiv="refresh" content="0;url=${beacon}/meta">`,
    `<form action="${beacon}/form"><button>submit</button></form>`,
    `"><script>${alert}</script>`,
    `'><img src=x onerror=${alert}>`,
    `</textarea><script>${alert}</script>`,
    `</title><script>${alert}</script>`,
    `<scr<script>ipt>${alert}</scr</script>ipt>`,
    `\u202e<script>${alert}</script>`,
    `{{constructor.constructor('${alert}')()}}`,
    `\${${alert}}`,
    `[md link](javascript:${alert})`,
    `[md link, mixed case](JaVaScRiPt:${alert})`,
    `[md link, entity](&#106;avascript:${alert})`,
    `[md data link](data:text/html,<script>${alert}</script>)`,
    `[md vbscript](vbscript:msgbox(1))`,
    `![markdown image](${beacon}/md-image.png)`,
    `An inline ![markdown image](${beacon}/md-inline.png) in a paragraph.`,
    `![reference image][ref]\n\n[ref]: ${beacon}/md-ref.png`,
    `<${beacon}/autolink>`,
    '```html\n<script>alert(1)</script>\n```',
    '`<img src=x onerror=alert(1)>`',
    `$$\\href{javascript:${alert}}{katex}$$`,
  ];
}

/** A server on another origin that counts every request it gets. */
async function startBeacon(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    // `localhost`, not the app's 127.0.0.1: another origin for the browser.
    url: `http://localhost:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let fake: FakeOpenAI;
let app: NextServer;
let beacon: Awaited<ReturnType<typeof startBeacon>>;
let vectors: string[];

test.beforeAll(async () => {
  test.setTimeout(90_000);
  fake = await startFakeOpenAI();
  beacon = await startBeacon();
  vectors = corpus(beacon.url);
  app = await startNext({
    port: await freePort(),
    env: modelEnv(fake, MODEL),
  });
  // The first request of a turn calls the tools with hostile arguments; once their results
  // are in, the answer quotes every vector.
  fake.respond(({ body }) =>
    body.messages.at(-1)?.role === 'tool'
      ? reply.text(...vectors.map((vector) => `${vector}\n\n`))
      : reply.toolCalls([
          {
            name: 'show_table',
            args: {
              title: vectors[0],
              columns: [
                { name: vectors[3]?.slice(0, 60), type: 'string' },
                { name: 'n', type: 'number' },
              ],
              rows: vectors.map((vector, index) => [vector, index]),
            },
          },
          {
            name: 'plot',
            args: {
              kind: 'bar',
              title: vectors[5],
              xLabel: vectors[2]?.slice(0, 60),
              series: [{ name: vectors[4]?.slice(0, 60), points: [{ x: 1, y: 2 }] }],
            },
          },
          { name: 'add_task', args: { title: vectors[1] } },
        ]),
  );
});

test.afterAll(async () => {
  await app?.stop();
  await beacon?.close();
  await fake?.close();
});

type Watch = { dialogs: string[]; foreign: string[]; violations(): Promise<string[]> };

/** Records dialogs, requests to other origins and CSP violations of `page`. */
async function watch(page: Page): Promise<Watch> {
  const dialogs: string[] = [];
  const foreign: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(app.url) && !request.url().startsWith('data:')) {
      foreign.push(request.url());
    }
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(
        `${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`,
      ),
    );
  });
  return {
    dialogs,
    foreign,
    violations: () =>
      page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  };
}

/**
 * Opens each widget of the transcript from the keyboard, as a person may, and closes it again.
 * Not with the mouse: just after hydration the transcript's rows are rendered again by the
 * virtualiser and measured, and a click aimed before a row moved lands beside the button. A
 * key pressed on a button replaced meanwhile goes nowhere, and is pressed again.
 */
async function openEveryWidget(page: Page, shot: string) {
  for (const widget of ['table', 'chart', 'task board']) {
    const open = page.getByRole('button', { name: new RegExp(`^Open ${widget}`) }).first();
    await hydrated(open);
    await expect(async () => {
      await open.press('Enter');
      await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await page.screenshot({ path: `test-results/xss-${shot}-${widget.replace(' ', '-')}.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
  // Every tool card open: arguments and results shown as code.
  for (const trigger of await page.locator('[data-slot="collapsible-trigger"]').all()) {
    await trigger.click();
  }
}

async function expectClean(page: Page, watched: Watch) {
  expect(watched.dialogs).toEqual([]);
  expect(watched.foreign).toEqual([]);
  expect(await watched.violations()).toEqual([]);
  expect(beacon.hits).toEqual([]);
  // No element the model's text could have made is in the transcript, only its text.
  const transcript = page.getByRole('list', { name: 'Transcript' });
  expect(await transcript.locator('iframe, object, embed, img, video, audio, form').count()).toBe(
    0,
  );
}

test('a corpus of hostile text runs nothing and loads nothing, for the owner and a reader', async ({
  page,
  stranger,
}) => {
  test.setTimeout(120_000);
  expect(vectors.length).toBeGreaterThanOrEqual(50);
  const owner = await watch(page);
  await startChat(page, 'Show me everything', app.url);
  const transcript = page.getByRole('list', { name: 'Transcript' });
  await expect(transcript).toContainText('svg link', { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 30_000 });
  // The raw markup is shown as text, not interpreted.
  await expect(transcript).toContainText(`<script>alert(document.domain)</script>`);
  await openEveryWidget(page, 'owner');
  await page.screenshot({ path: 'test-results/xss-owner.png', fullPage: true });
  await page.reload();
  await expect(transcript).toContainText('svg link');
  await openEveryWidget(page, 'owner-reload');
  await expectClean(page, owner);

  const url = page.url();
  const shared = await page.evaluate(
    async (path) =>
      (
        await fetch(path, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ visibility: 'public' }),
        })
      ).status,
    `/api/sessions/${url.split('/').at(-1)}`,
  );
  expect(shared).toBe(200);
  await readAsSomeoneElse(stranger, url);

  // The watchers work: an image from another origin, added on purpose, is blocked and reported.
  await page.evaluate((source) => {
    const image = new Image();
    image.src = source;
    document.body.append(image);
  }, `${beacon.url}/provoked.png`);
  await expect
    .poll(() => owner.violations())
    .toEqual([expect.stringMatching(`^img-src ${beacon.url}/provoked.png `)]);
  expect(beacon.hits).toEqual([]);
});

async function readAsSomeoneElse(reader: Page, url: string) {
  const watched = await watch(reader);
  await reader.goto(url);
  await expect(reader.getByRole('list', { name: 'Transcript' })).toContainText('svg link');
  await openEveryWidget(reader, 'reader');
  await reader.screenshot({ path: 'test-results/xss-reader.png', fullPage: true });
  await expectClean(reader, watched);
}
