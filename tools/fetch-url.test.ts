import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import {
  createToolSet,
  runTool,
  type Tool,
  type ToolOutcome,
  type ToolResult,
  validateArgs,
} from '@/lib/tools';
import { startLocalServer } from '@/tests/helpers/local-server';
import { memoryServices } from '@/tests/helpers/tool-services';
import { createFetchUrl, fetchUrl, MAX_BODY_BYTES } from './fetch-url';
import { demoIntents, toolSet } from './index';

const PLAIN = 'line one\n   indented   line two\n\n';
const JSON_BODY = '{"a": [1, 2],  "b": "x"}';

function route(req: IncomingMessage, res: ServerResponse) {
  switch (req.url) {
    case '/page.html':
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          '<!doctype html><title> A   page </title><nav>Home</nav>' +
            '<main><h1>Heading</h1><p>Some <b>bold</b> text.</p><script>secret()</script></main>',
        );
    case '/empty.html':
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body><div id="app"></div><script>render()</script></body></html>');
    case '/plain.txt':
      return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PLAIN);
    case '/data.json':
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_BODY);
    case '/moved':
      return res.writeHead(301, { location: '/plain.txt' }).end();
    case '/big.txt':
      return res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('a'.repeat(MAX_BODY_BYTES + 1024 * 1024));
    case '/nul.txt':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('before\u0000after');
    case '/nul.html':
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<title>A\u0000B</title><main><p>one\u0000two</p></main>');
    case '/binary-as-text':
      return res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(Buffer.from([0, 159, 146, 150, 0]));
    case '/image.png':
      return res
        .writeHead(200, { 'content-type': 'image/png', 'content-length': 20480 })
        .end(Buffer.alloc(20480, 0x89));
    case '/untyped':
      res.removeHeader('content-type');
      return res.end(Buffer.from([0, 159, 146, 150, 0]));
    case '/missing':
      return res.writeHead(404).end('no such page');
    default:
      return res.writeHead(500).end();
  }
}

const local = startLocalServer(route);

afterEach(() => {
  vi.unstubAllEnvs();
});

const context = { agentId: 'agent-1', sessionId: 'session-1', services: memoryServices() };

/** Through the contract, as an agent runs it. */
function run(url: string, tool: Tool = fetchUrl as Tool, signal?: AbortSignal) {
  return runTool(
    createToolSet([tool]),
    { toolCallId: 'call-1', toolName: 'fetch_url', args: { url } },
    { ...context, signal },
  );
}

/** The tool's own result, without the contract around it. */
function execute(url: string, tool = fetchUrl): Promise<ToolResult> {
  return Promise.resolve(
    tool.execute(
      'agent-1',
      'call-1',
      { url },
      { ...memoryServices(), signal: new AbortController().signal, sessionId: 's' },
    ),
  );
}

function expectError(outcome: ToolOutcome, pattern: RegExp) {
  expect(outcome.isError, outcome.modelText).toBe(true);
  expect(outcome.modelText).toMatch(pattern);
  expect(outcome).not.toHaveProperty('ui');
}

describe('fetch_url on the local server (QUANTA_FETCH_ALLOW_PRIVATE=1)', () => {
  beforeEach(() => {
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', '1');
  });

  it('extracts the readable text of an HTML page; the size note is for the human only', async () => {
    const outcome = await run(`${local.origin}/page.html`);
    expect(outcome).toEqual({
      isError: false,
      modelText: `URL: ${local.origin}/page.html\nTitle: A page\n\nHeading\nSome bold text.`,
      ui: { kind: 'text', text: `Fetched 0.2 KB from 127.0.0.1:${local.port}` },
    });
  });

  it('says so when a page has no readable text', async () => {
    const outcome = await run(`${local.origin}/empty.html`);
    expect(outcome.isError).toBe(false);
    expect(outcome.modelText).toContain('no readable text');
    expect(outcome.modelText).not.toContain('render()');
  });

  it('returns plain text and JSON as they are', async () => {
    expect(await execute(`${local.origin}/plain.txt`)).toEqual({
      status: 'ok',
      result: `URL: ${local.origin}/plain.txt\n\n${PLAIN}`,
      ui: { kind: 'text', text: `Fetched 0.1 KB from 127.0.0.1:${local.port}` },
    });
    const json = await run(`${local.origin}/data.json`);
    expect(json.isError).toBe(false);
    expect(json.modelText).toBe(`URL: ${local.origin}/data.json\n\n${JSON_BODY}`);
  });

  it('names the URL it was redirected to', async () => {
    expect((await run(`${local.origin}/moved`)).modelText).toBe(
      `URL: ${local.origin}/plain.txt\n\n${PLAIN}`,
    );
  });

  it('returns a text page with a NUL readable, with U+FFFD where the NUL was', async () => {
    expect(await run(`${local.origin}/nul.txt`)).toEqual({
      isError: false,
      modelText: `URL: ${local.origin}/nul.txt\n\nbefore\uFFFDafter`,
      ui: { kind: 'text', text: `Fetched 0.1 KB from 127.0.0.1:${local.port}` },
    });
    const html = await run(`${local.origin}/nul.html`);
    expect(html.isError).toBe(false);
    expect(html.modelText).toBe(`URL: ${local.origin}/nul.html\nTitle: A\uFFFDB\n\none\uFFFDtwo`);
  });

  it('describes NUL bytes in what is not UTF-8 as binary, though labelled text', async () => {
    expectError(
      await run(`${local.origin}/binary-as-text`),
      /\/binary-as-text is text\/plain but sent 0\.1 KB of binary data, not text$/,
    );
  });

  it(`reads at most ${MAX_BODY_BYTES} bytes of a bigger body and says so`, async () => {
    const result = await execute(`${local.origin}/big.txt`);
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    const text = result.result as string;
    expect(text.startsWith(`URL: ${local.origin}/big.txt\n[Only the first 2 MB were read;`)).toBe(
      true,
    );
    expect(text.split('\n\n')[1]).toBe('a'.repeat(MAX_BODY_BYTES));
    expect(result.ui).toEqual({
      kind: 'text',
      text: `Fetched 2048 KB from 127.0.0.1:${local.port} (cut at 2 MB)`,
    });
    // Through the contract the model still learns that the page was cut.
    const outcome = await run(`${local.origin}/big.txt`);
    expect(outcome.modelText).toContain('[Only the first 2 MB were read; the rest is missing.]');
  });

  it('gives up on a slow body after its own timeout, before runTool does', async () => {
    const tool = createFetchUrl({ timeoutMs: 300 }) as Tool;
    const started = Date.now();
    const outcome = await run(`${local.origin}/stall`, tool);
    expectError(outcome, /^timed out after 0\.3 s fetching http:\/\/127\.0\.0\.1:\d+\/stall$/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('stops when runTool aborts its signal, closing the connection', async () => {
    const controller = new AbortController();
    const pending = run(`${local.origin}/stall`, fetchUrl as Tool, controller.signal);
    await local.stalled;
    controller.abort();
    expectError(await pending, /^fetch_url was aborted$/);
    // The tool itself let go: the server sees the connection close well before any timeout.
    const timer = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('still open')), 2_000),
    );
    await Promise.race([local.hungUp, timer]);
  });

  it('fails with the HTTP status', async () => {
    expectError(
      await run(`${local.origin}/missing`),
      /^HTTP 404 Not Found from http:\/\/127\.0\.0\.1:/,
    );
  });

  it('describes a binary content type instead of reading it', async () => {
    expectError(
      await run(`${local.origin}/image.png`),
      /\/image\.png is image\/png, 20 KB, not text: its content was not read$/,
    );
    expectError(
      await run(`${local.origin}/untyped`),
      /\/untyped sent 0\.1 KB of binary data, not text$/,
    );
  });

  it('tells the model why a URL cannot be fetched', async () => {
    expectError(
      await run('file:///etc/passwd'),
      /^only http:\/\/ and https:\/\/ URLs can be fetched, not file:$/,
    );
  });

  it('rejects what is not a URL before running', async () => {
    expectError(await run('not a url'), /^url: must match format "uri"$/);
  });
});

describe('fetch_url refuses addresses that are not public', () => {
  it('refuses loopback unless QUANTA_FETCH_ALLOW_PRIVATE=1, and says so', async () => {
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', undefined);
    expectError(
      await run(`${local.origin}/plain.txt`),
      /^refused: 127\.0\.0\.1 is not a public address \(loopback\) \(the server allows loopback and private addresses only with QUANTA_FETCH_ALLOW_PRIVATE=1\)$/,
    );
    expect(local.connections).toBe(0);
  });

  it('asks the policy it was created with', async () => {
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', '1');
    const tool = createFetchUrl({ allowAddress: (address) => address !== '127.0.0.1' }) as Tool;
    expectError(await run(`${local.origin}/plain.txt`, tool), /^refused: 127\.0\.0\.1 /);
    expect(local.connections).toBe(0);
  });
});

describe('shipping', () => {
  it('is in the shipped tool set', () => {
    expect(toolSet.get('fetch_url')).toBe(fetchUrl);
  });

  it('is what the demo model calls for "fetch <url>" and "read <url>"', () => {
    const available = new Set(['fetch_url']);
    for (const [text, url] of [
      ['fetch https://example.com', 'https://example.com'],
      ['Read https://example.com/a?b=1.', 'https://example.com/a?b=1'],
      ['please read the page at <https://example.org/x>', 'https://example.org/x'],
    ] as const) {
      const calls = recognise(text, demoIntents, available);
      expect(calls, text).toEqual([{ tool: 'fetch_url', args: { url } }]);
      expect(validateArgs(fetchUrl as Tool, calls[0]?.args)).toEqual({ valid: true });
    }
    expect(recognise('read me a story', demoIntents, available)).toEqual([]);
    expect(recognise('fetch ftp://example.com/file', demoIntents, available)).toEqual([]);
  });
});
