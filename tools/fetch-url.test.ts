import dns from 'node:dns';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, isIP, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recognise } from '@/lib/agent/demo-intents';
import {
  createToolSet,
  runTool,
  type Tool,
  type ToolOutcome,
  type ToolResult,
  validateArgs,
} from '@/lib/tools';
import {
  addressRange,
  allowedByDefault,
  createFetchUrl,
  fetchUrl,
  htmlToText,
  MAX_BODY_BYTES,
} from './fetch-url';
import { toolSet } from './index';

const PAGE = `<!doctype html>
<html>
<head>
  <title>  A   test
    page </title>
  <style>body { color: red }</style>
  <script>var secret = "script text";</script>
</head>
<body>
  <header>Site header</header>
  <nav><a href="/">Home</a> <a href="/about">About</a></nav>
  <main>
    <h1>Main   heading</h1>
    <p>First paragraph with <b>bold</b>
       words &amp; an entity.</p>
    <ul><li>one</li><li>two</li></ul>
    <script>document.write("inline")</script>
    <aside>Related links</aside>
  </main>
  <footer>Copyright footer</footer>
</body>
</html>`;
const PLAIN = 'line one\n   indented   line two\n\n';
const JSON_BODY = '{"a": [1, 2],  "b": "x"}';
const BIG = MAX_BODY_BYTES + 1024 * 1024;

/** Paths the server was asked for, and how many connections it accepted. */
const seen = { paths: [] as string[], connections: 0 };
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
/** The server got /slow, and the client hung up on it: each test has its own. */
let slowStarted = deferred();
let slowClosed = deferred();

function route(req: IncomingMessage, res: ServerResponse, port: number) {
  const path = req.url ?? '/';
  const redirect = (location: string, status = 302) =>
    res.writeHead(status, { location }).end('moved');
  const chain = /^\/redirect\/(\d+)$/.exec(path);
  if (chain) {
    const left = Number(chain[1]);
    return left === 0 ? res.end('arrived') : redirect(`/redirect/${left - 1}`);
  }
  switch (path) {
    case '/page.html':
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    case '/plain.txt':
      return res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(PLAIN);
    case '/data.json':
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON_BODY);
    case '/latin1.txt':
      return res
        .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
        .end(Buffer.from('café', 'latin1'));
    case '/gzip.txt':
      return res
        .writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' })
        .end(gzipSync('unzipped text'));
    case '/big.txt':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(BIG));
    case '/image.png':
      return res
        .writeHead(200, { 'content-type': 'image/png', 'content-length': 20480 })
        .end(Buffer.alloc(20480, 0x89));
    case '/untyped': {
      res.removeHeader('content-type');
      return res.end(Buffer.from([0, 159, 146, 150, 0]));
    }
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
    case '/big-nul.txt':
      // The cut at MAX_BODY_BYTES falls inside the euro sign.
      return res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`\u0000${'a'.repeat(MAX_BODY_BYTES - 2)}€`);
    case '/big-untyped': {
      res.removeHeader('content-type');
      return res.end(`${'a'.repeat(MAX_BODY_BYTES - 1)}€`);
    }
    case '/empty.html':
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body><div id="app"></div><script>render()</script></body></html>');
    case '/slow':
      req.socket.once('close', slowClosed.resolve);
      slowStarted.resolve();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a first chunk, then nothing');
      return; // never ends: the client has to give up
    case '/missing':
      return res.writeHead(404).end('no such page');
    case '/loop':
      return redirect('/loop', 301);
    case '/relative':
      return redirect('plain.txt', 307);
    case '/to-file':
      return redirect('file:///etc/passwd');
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/');
    case '/to-mapped':
      return redirect(`http://[::ffff:127.0.0.1]:${port}/secret`);
    case '/secret':
      return res.end('the secret');
    default:
      return res.writeHead(500).end();
  }
}

const server = createServer();
let origin = '';
let port = 0;

beforeAll(async () => {
  server.on('connection', () => {
    seen.connections++;
  });
  server.on('request', (req, res) => {
    seen.paths.push(req.url ?? '');
    route(req, res, port);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  seen.paths = [];
  seen.connections = 0;
  slowStarted = deferred();
  slowClosed = deferred();
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const context = { agentId: 'agent-1', sessionId: 'session-1' };

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
      { signal: new AbortController().signal, sessionId: 's' },
    ),
  );
}

function expectError(outcome: ToolOutcome, pattern: RegExp) {
  expect(outcome.isError, outcome.modelText).toBe(true);
  expect(outcome.modelText).toMatch(pattern);
  expect(outcome).not.toHaveProperty('ui');
}

/**
 * Records every outgoing connection and lets none leave this machine: a connection to anything
 * but 127.0.0.1, localhost or `names` (which a test resolves with a mocked lookup) throws instead
 * of being made. (Were the refusal broken, the test fails here rather than sending a packet to
 * 10.0.0.1 or 169.254.169.254.)
 */
function guardConnections(names: string[] = []): string[] {
  const targets: string[] = [];
  const connect = Socket.prototype.connect;
  vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (this: Socket, ...args) {
    const first: unknown = Array.isArray(args[0]) ? args[0][0] : args[0];
    const host = String((first as { host?: string }).host);
    targets.push(host);
    if (!['127.0.0.1', 'localhost', ...names].includes(host)) {
      throw new Error(`test guard: a connection to ${host} was attempted`);
    }
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  });
  return targets;
}

describe('addressRange', () => {
  it('names the special-purpose range of addresses that are not public', () => {
    for (const [address, range] of [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['100.127.255.255', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.0.8', 'reserved'],
      ['192.0.2.1', 'reserved'],
      ['198.51.100.1', 'reserved'],
      ['203.0.113.1', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['240.0.0.1', 'reserved'],
      ['192.88.99.1', 'reserved'],
      ['192.175.48.1', 'as112'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456:789a::1', 'uniqueLocal'],
      ['fe80::1', 'linkLocal'],
      ['FE80::abcd', 'linkLocal'],
      ['febf:ffff::1', 'linkLocal'],
      ['fec0::1', 'deprecatedSiteLocal'],
      ['ff02::1', 'multicast'],
      ['::ffff:0:7f00:1', 'rfc6145'],
      ['::ffff:0:808:808', 'rfc6145'],
      ['100::1', 'discard'],
      ['2001::1', 'teredo'],
      ['2001:0:4136:e378::1', 'teredo'],
      ['2001:db8::1', 'reserved'],
      ['2001:2::1', 'benchmarking'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['64:ff9b:1::7f00:1', 'rfc6052'],
      ['2002:a00:1::1', '6to4'],
      // Outside 2000::/3, IPv6's global unicast: IPv4-compatible (::/96) and unassigned space.
      ['::7f00:1', 'reserved'],
      ['::808:808', 'reserved'],
      ['fbff::1', 'reserved'],
      ['4000::1', 'reserved'],
      // IPv4-mapped addresses are judged by their IPv4 address, however they are written.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:a9fe:a9fe', 'linkLocal'],
      ['::ffff:192.168.1.1', 'private'],
      ['::ffff:100.64.0.1', 'carrierGradeNat'],
      ['::ffff:192.0.2.1', 'reserved'],
      ['::127.0.0.1', 'loopback'],
      // Only strict IP addresses: these short and octal forms are not.
      ['127.1', 'invalid'],
      ['0177.0.0.1', 'invalid'],
      ['not an address', 'invalid'],
      ['', 'invalid'],
    ] as const) {
      expect(addressRange(address), address).toBe(range);
      expect(allowedByDefault(address), address).toBe(false);
    }
  });

  it('calls public addresses unicast, also just outside each refused range', () => {
    for (const address of [
      '8.8.8.8',
      '93.184.215.14',
      '9.255.255.255',
      '11.0.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '192.167.255.255',
      '192.169.0.0',
      '169.253.255.255',
      '169.255.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '192.0.3.0',
      '198.51.99.255',
      '203.0.114.0',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '2001:200::1',
      '2003::1',
      '::ffff:8.8.8.8',
    ]) {
      expect(addressRange(address), address).toBe('unicast');
      expect(allowedByDefault(address), address).toBe(true);
    }
  });

  it('opens loopback and private ranges with QUANTA_FETCH_ALLOW_PRIVATE=1, read at each call', () => {
    const opened = ['127.0.0.1', '::1', '10.0.0.1', '192.168.1.1', 'fd00::1', '100.64.0.1'];
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', undefined);
    for (const address of opened) expect(allowedByDefault(address), address).toBe(false);
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', 'true');
    expect(allowedByDefault('127.0.0.1')).toBe(false);
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', '1');
    for (const address of opened) expect(allowedByDefault(address), address).toBe(true);
    expect(allowedByDefault('::ffff:127.0.0.1')).toBe(true);
    expect(allowedByDefault('8.8.8.8')).toBe(true);
    // Never a server of the operator's: cloud metadata, documentation, tunnels, multicast...
    for (const address of [
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '::',
      '192.0.2.1',
      '::ffff:0:7f00:1',
      '2001::1',
      '100::1',
      '2002:7f00:1::1',
      '64:ff9b::7f00:1',
      '224.0.0.1',
      'not an address',
    ]) {
      expect(allowedByDefault(address), address).toBe(false);
    }
  });
});

describe('htmlToText', () => {
  it('keeps the title and the main text, without scripts, styles or navigation', () => {
    expect(htmlToText(PAGE)).toEqual({
      title: 'A test page',
      text: 'Main heading\nFirst paragraph with bold words & an entity.\none\ntwo',
    });
  });

  it('falls back to the body without its site header and footer', () => {
    const html =
      '<title>T</title><body><header>Logo</header><div>Body <i>text</i></div>' +
      '<p hidden>hidden</p><footer>Foot</footer></body>';
    expect(htmlToText(html)).toEqual({ title: 'T', text: 'Body text' });
  });
});

describe('fetch_url on the local server (QUANTA_FETCH_ALLOW_PRIVATE=1)', () => {
  beforeEach(() => {
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', '1');
  });

  it('extracts the readable text of an HTML page; the size note is for the human only', async () => {
    const outcome = await run(`${origin}/page.html`);
    expect(outcome).toEqual({
      isError: false,
      modelText:
        `URL: ${origin}/page.html\nTitle: A test page\n\n` +
        'Main heading\nFirst paragraph with bold words & an entity.\none\ntwo',
      ui: { kind: 'text', text: `Fetched 0.6 KB from 127.0.0.1:${port}` },
    });
    expect(outcome.modelText).not.toContain('Fetched');
    for (const dropped of ['script text', 'color: red', 'About', 'Site header', 'Copyright']) {
      expect(outcome.modelText).not.toContain(dropped);
    }
  });

  it('says so when a page has no readable text', async () => {
    const outcome = await run(`${origin}/empty.html`);
    expect(outcome.isError).toBe(false);
    expect(outcome.modelText).toContain('no readable text');
    expect(outcome.modelText).not.toContain('render()');
  });

  it('returns plain text and JSON as they are', async () => {
    expect(await execute(`${origin}/plain.txt`)).toEqual({
      status: 'ok',
      result: `URL: ${origin}/plain.txt\n\n${PLAIN}`,
      ui: { kind: 'text', text: `Fetched 0.1 KB from 127.0.0.1:${port}` },
    });
    const json = await run(`${origin}/data.json`);
    expect(json.isError).toBe(false);
    expect(json.modelText).toBe(`URL: ${origin}/data.json\n\n${JSON_BODY}`);
  });

  it('decodes the declared charset and a gzip body', async () => {
    expect((await run(`${origin}/latin1.txt`)).modelText).toMatch(/\n\ncafé$/);
    expect((await run(`${origin}/gzip.txt`)).modelText).toMatch(/\n\nunzipped text$/);
  });

  it('returns a text page with a NUL readable, with U+FFFD where the NUL was', async () => {
    expect(await run(`${origin}/nul.txt`)).toEqual({
      isError: false,
      modelText: `URL: ${origin}/nul.txt\n\nbefore\uFFFDafter`,
      ui: { kind: 'text', text: `Fetched 0.1 KB from 127.0.0.1:${port}` },
    });
    const html = await run(`${origin}/nul.html`);
    expect(html.isError).toBe(false);
    expect(html.modelText).toBe(`URL: ${origin}/nul.html\nTitle: A\uFFFDB\n\none\uFFFDtwo`);
  });

  it('describes NUL bytes in what is not UTF-8 as binary, though labelled text', async () => {
    expectError(
      await run(`${origin}/binary-as-text`),
      /\/binary-as-text is text\/plain but sent 0\.1 KB of binary data, not text$/,
    );
  });

  it('judges a body cut inside a character by the bytes it has', async () => {
    const cut = await execute(`${origin}/big-nul.txt`);
    expect(cut.status).toBe('ok');
    if (cut.status !== 'ok') return;
    expect((cut.result as string).split('\n\n')[1]).toBe(
      `\uFFFD${'a'.repeat(MAX_BODY_BYTES - 2)}\uFFFD`,
    );
    const untyped = await execute(`${origin}/big-untyped`);
    expect(untyped.status).toBe('ok');
    if (untyped.status !== 'ok') return;
    expect((untyped.result as string).split('\n\n')[1]).toBe(
      `${'a'.repeat(MAX_BODY_BYTES - 1)}\uFFFD`,
    );
  });

  it(`reads at most ${MAX_BODY_BYTES} bytes of a bigger body and says so`, async () => {
    const result = await execute(`${origin}/big.txt`);
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    const text = result.result as string;
    expect(text.startsWith(`URL: ${origin}/big.txt\n[Only the first 2 MB were read;`)).toBe(true);
    expect(text.split('\n\n')[1]).toBe('a'.repeat(MAX_BODY_BYTES));
    expect(result.ui).toEqual({
      kind: 'text',
      text: `Fetched 2048 KB from 127.0.0.1:${port} (cut at 2 MB)`,
    });
    // Through the contract the model still learns that the page was cut.
    const outcome = await run(`${origin}/big.txt`);
    expect(outcome.modelText).toContain('[Only the first 2 MB were read; the rest is missing.]');
  });

  it('gives up on a slow body after its own timeout and hangs up', async () => {
    const tool = createFetchUrl({ timeoutMs: 300 }) as Tool;
    const started = Date.now();
    const outcome = await run(`${origin}/slow`, tool);
    expectError(outcome, /^timed out after 0\.3 s fetching http:\/\/127\.0\.0\.1:\d+\/slow$/);
    expect(Date.now() - started).toBeLessThan(3_000);
    await slowClosed.promise;
  });

  it('stops when runTool aborts its signal, closing the connection', async () => {
    const controller = new AbortController();
    const pending = run(`${origin}/slow`, fetchUrl as Tool, controller.signal);
    await slowStarted.promise;
    controller.abort();
    expectError(await pending, /^fetch_url was aborted$/);
    // The tool itself let go: the server sees the connection close well before any timeout.
    const timer = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('still open')), 2_000),
    );
    await Promise.race([slowClosed.promise, timer]);
  });

  it('reports an abort when called directly with an aborted signal', async () => {
    const controller = new AbortController();
    const pending = fetchUrl.execute(
      'agent-1',
      'call-1',
      { url: `${origin}/slow` },
      { signal: controller.signal, sessionId: 's' },
    );
    await slowStarted.promise;
    controller.abort();
    expect(await pending).toEqual({
      status: 'error',
      reason: `fetching ${origin}/slow was aborted`,
    });
  });

  it(`follows up to 5 redirects, relative ones too`, async () => {
    const outcome = await run(`${origin}/redirect/5`);
    expect(outcome.isError).toBe(false);
    expect(outcome.modelText).toBe(`URL: ${origin}/redirect/0\n\narrived`);
    expect(seen.paths).toHaveLength(6);
    const relative = await run(`${origin}/relative`);
    expect(relative.modelText).toBe(`URL: ${origin}/plain.txt\n\n${PLAIN}`);
  });

  it('refuses a sixth redirect and a redirect loop', async () => {
    expectError(await run(`${origin}/redirect/6`), /^too many redirects: gave up after 5, at /);
    expect(seen.paths).toEqual(['/redirect/6', ...[5, 4, 3, 2, 1].map((n) => `/redirect/${n}`)]);
    seen.paths = [];
    expectError(await run(`${origin}/loop`), /^too many redirects/);
    expect(seen.paths).toHaveLength(6);
  });

  it('fails with the HTTP status', async () => {
    expectError(await run(`${origin}/missing`), /^HTTP 404 Not Found from http:\/\/127\.0\.0\.1:/);
  });

  it('describes a binary content type instead of reading it', async () => {
    expectError(
      await run(`${origin}/image.png`),
      /\/image\.png is image\/png, 20 KB, not text: its content was not read$/,
    );
    expectError(await run(`${origin}/untyped`), /\/untyped sent 0\.1 KB of binary data, not text$/);
  });

  it('refuses other schemes, given or redirected to', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/file', 'javascript:alert(1)']) {
      expect(await execute(url)).toEqual({
        status: 'error',
        reason: `only http:// and https:// URLs can be fetched, not ${url.split(':')[0]}:`,
      });
    }
    expectError(await run('file:///etc/passwd'), /only http:\/\/ and https:\/\//);
    expectError(
      await run(`${origin}/to-file`),
      /^only http:\/\/ and https:\/\/ URLs .* not file:$/,
    );
  });

  it('rejects what is not a URL before running', async () => {
    expectError(await run('not a url'), /^url: must match format "uri"$/);
    expect(await execute('not a url')).toEqual({
      status: 'error',
      reason: 'not a valid URL: not a url',
    });
  });
});

describe('fetch_url refuses addresses that are not public', () => {
  beforeEach(() => {
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', undefined);
  });

  it('refuses IP literals without making any connection', async () => {
    const targets = guardConnections();
    for (const [host, range] of [
      [`127.0.0.1:${port}`, 'loopback'],
      ['10.0.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      [`[::1]:${port}`, 'loopback'],
      [`[::ffff:127.0.0.1]:${port}`, 'loopback'],
      ['[fe80::1]', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      // Other spellings of 127.0.0.1: the URL parser turns them into the address itself.
      ['2130706433', 'loopback'],
      ['0x7f000001', 'loopback'],
      [`127.1:${port}`, 'loopback'],
      ['[0:0:0:0:0:ffff:127.0.0.1]', 'loopback'],
    ] as const) {
      const outcome = await run(`http://${host}/page.html`);
      expectError(outcome, new RegExp(`^refused: \\S+ is not a public address \\(${range}\\)`));
      // The switch is named only where it would help.
      const opens = range === 'loopback' || range === 'private' || range === 'carrierGradeNat';
      expect(
        outcome.modelText.endsWith(
          ' (the server allows loopback and private addresses only with QUANTA_FETCH_ALLOW_PRIVATE=1)',
        ),
      ).toBe(opens);
    }
    expect(targets).toEqual([]);
    expect(seen.connections).toBe(0);
  });

  // The ranges the old hand-written table missed, each as a URL's host and as a name's DNS answer.
  const SPECIAL = [
    ['::ffff:0:7f00:1', 'rfc6145'], // IPv4-translated, RFC 6145
    ['100::1', 'discard'], // discard-only, RFC 6666
    ['2001::1', 'teredo'], // Teredo, RFC 4380
    ['192.0.2.1', 'reserved'], // TEST-NET-1, RFC 5737
    ['198.51.100.1', 'reserved'], // TEST-NET-2
    ['203.0.113.1', 'reserved'], // TEST-NET-3
  ] as const;

  it('refuses special-purpose addresses, even with QUANTA_FETCH_ALLOW_PRIVATE=1', async () => {
    const targets = guardConnections();
    for (const allowPrivate of [undefined, '1']) {
      vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', allowPrivate);
      for (const [address, range] of SPECIAL) {
        const host = address.includes(':') ? `[${address}]` : address;
        expect(await execute(`http://${host}/page.html`), address).toEqual({
          status: 'error',
          reason: `refused: ${address} is not a public address (${range})`,
        });
      }
    }
    expect(targets).toEqual([]);
  });

  it('refuses a name that resolves to a special-purpose address as the socket connects', async () => {
    let answer = '';
    vi.spyOn(dns, 'lookup').mockImplementation(((
      _hostname: string,
      _options: unknown,
      callback: (error: null, addresses: dns.LookupAddress[]) => void,
    ) => callback(null, [{ address: answer, family: isIP(answer) }])) as typeof dns.lookup);
    const targets = guardConnections(['special.test']);
    for (const [address, range] of SPECIAL) {
      answer = address;
      expect(await execute('http://special.test/page.html'), address).toEqual({
        status: 'error',
        reason: `refused: special.test resolves to ${address}, which is not a public address (${range})`,
      });
    }
    expect(targets).toEqual(SPECIAL.map(() => 'special.test'));
  });

  it('lets a public address through to the connection', async () => {
    const targets = guardConnections();
    for (const host of ['93.184.215.14', '[2606:4700:4700::1111]', '[::ffff:8.8.8.8]']) {
      expect(await execute(`http://${host}/page.html`)).toEqual({
        status: 'error',
        reason: expect.stringMatching(
          /^cannot fetch .*: test guard: a connection to \S+ was attempted$/,
        ),
      });
    }
    expect(targets).toEqual(['93.184.215.14', '2606:4700:4700::1111', '::ffff:808:808']);
  });

  it('refuses a hostname that resolves to loopback as the socket connects', async () => {
    guardConnections();
    const outcome = await run(`http://localhost:${port}/page.html`);
    expectError(
      outcome,
      /^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address \(loopback\) /,
    );
    expect(seen.connections).toBe(0);
  });

  it('refuses a redirect from an allowed address to a private one', async () => {
    // Only this test's server is allowed (by its exact address); everything else is judged as
    // in production.
    const tool = createFetchUrl({
      allowAddress: (address) => address === '127.0.0.1' || allowedByDefault(address),
    }) as Tool;
    const targets = guardConnections();
    expect((await run(`${origin}/plain.txt`, tool)).isError).toBe(false);

    expectError(
      await run(`${origin}/to-metadata`, tool),
      /^refused: 169\.254\.169\.254 is not a public address \(linkLocal\)$/,
    );
    expectError(await run(`${origin}/to-mapped`, tool), /^refused: ::ffff:7f00:1 is not a public /);
    expect(seen.paths).toEqual(['/plain.txt', '/to-metadata', '/to-mapped']);
    expect(targets).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
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
      const calls = recognise(text, available);
      expect(calls, text).toEqual([{ tool: 'fetch_url', args: { url } }]);
      expect(validateArgs(fetchUrl as Tool, calls[0]?.args)).toEqual({ valid: true });
    }
    expect(recognise('read me a story', available)).toEqual([]);
    expect(recognise('fetch ftp://example.com/file', available)).toEqual([]);
  });
});
