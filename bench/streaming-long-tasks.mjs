// Long tasks (the browser's main thread busy over 50 ms: input waits) in Chromium while a chat
// page streams a 2,000-token answer (or as many tokens as the second argument says) with code
// blocks. The answer comes from the page's own fetch (replaced before the page loads) as the
// server frames it, a few tokens every 30 ms, so the figures are the browser's alone: markdown,
// highlighting and React.
// Run against a built app: npx next build && npx next start -p 3100 &
//   node bench/streaming-long-tasks.mjs http://127.0.0.1:3100 [tokens]
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const base = process.argv[2] ?? 'http://127.0.0.1:3000';
const TOKENS = Number(process.argv[3] ?? 2000);
if (!Number.isInteger(TOKENS) || TOKENS < 1)
  throw new Error(`Not a number of tokens: ${process.argv[3]}`);
const TOKENS_PER_FRAME = 6;
const FRAME_MS = 30;

const SECTIONS = [
  (n) =>
    `## Step ${n}: read the input\n\nFirst we read the file line by line, keeping **only** the rows with a \`status\` of \`done\`, and count them per [owner](https://example.com/owners).\n\n`,
  (n) =>
    `\`\`\`ts\nexport async function readRows${n}(path: string): Promise<Row[]> {\n  const text = await readFile(path, 'utf8');\n  const rows: Row[] = [];\n  for (const line of text.split('\\n')) {\n    if (!line.trim()) continue;\n    const [owner, status, size] = line.split(',');\n    if (status === 'done') rows.push({ owner, status, size: Number(size) });\n  }\n  return rows.toSorted((a, b) => b.size - a.size);\n}\n\`\`\`\n\n`,
  (n) =>
    `Then the totals, in Python for the notebook:\n\n\`\`\`python\ndef totals_${n}(rows):\n    by_owner = {}\n    for row in rows:\n        by_owner[row["owner"]] = by_owner.get(row["owner"], 0) + row["size"]\n    return sorted(by_owner.items(), key=lambda item: -item[1])\n\`\`\`\n\n`,
  (n) =>
    `| owner | rows | size |\n| --- | ---: | ---: |\n| ada | ${n} | ${n * 12} |\n| grace | ${n + 1} | ${n * 7} |\n\n- run it with \`npm start\`\n- then check the output\n\n`,
  (n) => `\`\`\`bash\nnode read.mjs data/${n}.csv | sort -k2 -n | tail -n 5\n\`\`\`\n\n`,
];

/** Markdown of about TOKENS tokens (a word or a run of punctuation each), in frames. */
function answerFrames() {
  const pieces = [];
  for (let n = 1; pieces.length < TOKENS; n++) {
    const section = SECTIONS[(n - 1) % SECTIONS.length](n);
    pieces.push(...section.match(/\s*[\w]+|\s*[^\w\s]+|\s+/g));
  }
  const frames = [];
  for (let i = 0; i < TOKENS; i += TOKENS_PER_FRAME) {
    frames.push(pieces.slice(i, i + TOKENS_PER_FRAME).join(''));
  }
  return frames;
}

/** In the page: the next POST of a message is answered by `frames`, one every `frameMs`. */
function fakeAnswer({ frames, frameMs }) {
  const realFetch = window.fetch;
  const stats = { longTasks: [], start: 0, end: 0 };
  window.streamingStats = stats;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      stats.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }
  }).observe({ type: 'longtask', buffered: true });
  window.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input.url;
    if (init?.method !== 'POST' || !/\/api\/sessions\/[^/]+\/messages$/.test(url)) {
      return realFetch(input, init);
    }
    const encoder = new TextEncoder();
    const sse = (chunk) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
    const body = new ReadableStream({
      async start(controller) {
        stats.start = performance.now();
        controller.enqueue(sse({ type: 'start', messageId: 'a_bench' }));
        controller.enqueue(sse({ type: 'start-step' }));
        controller.enqueue(sse({ type: 'text-start', id: 't' }));
        for (const delta of frames) {
          await new Promise((resolve) => setTimeout(resolve, frameMs));
          controller.enqueue(sse({ type: 'text-delta', id: 't', delta }));
        }
        controller.enqueue(sse({ type: 'text-end', id: 't' }));
        controller.enqueue(sse({ type: 'finish-step' }));
        controller.enqueue(sse({ type: 'finish' }));
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
        stats.end = performance.now();
      },
    });
    return Promise.resolve(
      new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    );
  };
}

async function openEmptySession(page) {
  await page.goto(base);
  const id = await page.evaluate(async () => {
    const response = await fetch('/api/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    return (await response.json()).session.id;
  });
  await page.goto(`${base}/c/${id}`);
}

const frames = answerFrames();
const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(fakeAnswer, { frames, frameMs: FRAME_MS });
  await openEmptySession(page);
  const composer = page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Show me how to total the rows');
  await composer.press('Enter');
  await page.waitForFunction(() => window.streamingStats.end > 0, null, { timeout: 120_000 });
  await page.getByRole('button', { name: 'Send' }).waitFor();
  // The last frame's render, and the highlighting it starts, finish after the stream.
  await page.waitForTimeout(1000);
  const { longTasks, start, end } = await page.evaluate(() => window.streamingStats);
  const during = longTasks.filter((task) => task.start >= start);
  const longest = Math.max(0, ...during.map((task) => task.duration));
  const blocking = during.reduce((sum, task) => sum + task.duration - 50, 0);
  console.log(
    `${frames.length} frames of ${TOKENS_PER_FRAME} tokens every ${FRAME_MS} ms ` +
      `(${frames.join('').length} characters), streamed in ${((end - start) / 1000).toFixed(1)} s`,
  );
  console.log(
    `long tasks (over 50 ms): ${during.length}, longest ${longest.toFixed(0)} ms, ` +
      `blocking time ${blocking.toFixed(0)} ms: ` +
      during
        .map(
          (task) =>
            `${task.duration.toFixed(0)} ms at ${((task.start - start) / 1000).toFixed(1)} s`,
        )
        .join(', '),
  );
} finally {
  await browser.close();
}
