import dns from 'node:dns';
import type { IncomingMessage, ServerResponse } from 'node:http';
import net, { isIP, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLocalServer } from '@/tests/helpers/local-server';
import { type AddressPolicy, allowedByDefault } from './address-policy';
import { FetchError, type GuardedFetchOptions, guardedFetch, MAX_REDIRECTS } from './guarded-fetch';

function route(req: IncomingMessage, res: ServerResponse) {
  const path = req.url ?? '/';
  const redirect = (location: string, status = 302) =>
    res.writeHead(status, { location }).end('moved');
  const chain = /^\/redirect\/(\d+)$/.exec(path);
  if (chain) {
    const left = Number(chain[1]);
    return left === 0 ? res.end('arrived') : redirect(`/redirect/${left - 1}`);
  }
  const bytes = /^\/bytes\/(\d+)$/.exec(path);
  if (bytes) return res.end('a'.repeat(Number(bytes[1])));
  const compressed = /^\/(gzip|x-gzip|deflate|br|compress)$/.exec(path)?.[1];
  if (compressed) {
    const compress = { deflate: deflateSync, br: brotliCompressSync }[compressed] ?? gzipSync;
    return res.writeHead(200, { 'content-encoding': compressed }).end(compress('unpacked'));
  }
  switch (path) {
    case '/plain.txt':
      return res.writeHead(200, { 'content-type': 'text/plain' }).end('plain text');
    case '/headers':
      return res.end(JSON.stringify(req.headers));
    case '/broken-gzip':
      return res.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all');
    case '/silent':
      return; // no answer at all: the client has to give up
    case '/missing':
      return res.writeHead(404).end('no such page');
    case '/nowhere':
      return res.writeHead(302).end('a redirect without a Location');
    case '/loop':
      return redirect('/loop', 301);
    case '/relative':
      return redirect('plain.txt', 307);
    case '/to-file':
      return redirect('file:///etc/passwd');
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/');
    case '/to-mapped':
      return redirect(`http://[::ffff:127.0.0.1]:${local.port}/secret`);
    case '/secret':
      return res.end('the secret');
    default:
      return res.writeHead(500).end();
  }
}

const local = startLocalServer(route);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Only this test's server is allowed (by its exact address); everything else as in production. */
const LOCAL: AddressPolicy = (address) => address === '127.0.0.1' || allowedByDefault(address);

function get(url: string, options: Partial<GuardedFetchOptions> = {}) {
  return guardedFetch(url, {
    allowAddress: LOCAL,
    signal: new AbortController().signal,
    timeoutMs: 5_000,
    maxBytes: 1024 * 1024,
    ...options,
  });
}

/** What fetching `url` answers: where from, and the body as text. */
async function read(url: string, options: Partial<GuardedFetchOptions> = {}) {
  const response = await get(url, options);
  try {
    const { bytes, capped } = await response.body();
    return { url: response.url.href, text: Buffer.from(bytes).toString(), capped };
  } finally {
    response.close();
  }
}

/** The message of the FetchError that reading `url` fails with. */
async function failure(url: string, options: Partial<GuardedFetchOptions> = {}): Promise<string> {
  const error = await read(url, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FetchError);
  return (error as FetchError).message;
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

/** Makes dns.lookup answer `answer()` for every name. */
function resolveTo(answer: () => dns.LookupAddress[]) {
  vi.spyOn(dns, 'lookup').mockImplementation(((
    _hostname: string,
    _options: unknown,
    callback: (error: null, addresses: dns.LookupAddress[]) => void,
  ) => callback(null, answer())) as typeof dns.lookup);
}

describe('guardedFetch', () => {
  it('answers with the status, the headers and the body, a failing status too', async () => {
    const response = await get(`${local.origin}/plain.txt`);
    expect(response).toMatchObject({
      url: new URL(`${local.origin}/plain.txt`),
      status: 200,
      statusText: 'OK',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await response.body()).toEqual({ bytes: Buffer.from('plain text'), capped: false });
    response.close();
    const missing = await get(`${local.origin}/missing`);
    expect(missing).toMatchObject({ status: 404, statusText: 'Not Found' });
    missing.close();
    expect(await read(`${local.origin}/nowhere`)).toMatchObject({
      url: `${local.origin}/nowhere`,
      text: 'a redirect without a Location',
    });
  });

  it("sends the caller's headers and asks for a compressed body", async () => {
    const headers = JSON.parse(
      (await read(`${local.origin}/headers`, { headers: { 'user-agent': 'a test' } })).text,
    );
    expect(headers).toMatchObject({
      'user-agent': 'a test',
      'accept-encoding': 'gzip, deflate, br',
    });
  });

  it('decompresses gzip, deflate and brotli bodies', async () => {
    for (const encoding of ['gzip', 'x-gzip', 'deflate', 'br']) {
      expect((await read(`${local.origin}/${encoding}`)).text, encoding).toBe('unpacked');
    }
  });

  it('fails on a body in an encoding it does not know, or broken', async () => {
    expect(await failure(`${local.origin}/compress`)).toBe(
      'cannot read a body in the compress encoding',
    );
    expect(await failure(`${local.origin}/broken-gzip`)).toBe(
      `cannot fetch ${local.origin}/broken-gzip: incorrect header check`,
    );
  });

  it('reads at most maxBytes of a body and says when it cut it', async () => {
    expect(await read(`${local.origin}/bytes/100000`, { maxBytes: 70_000 })).toMatchObject({
      text: 'a'.repeat(70_000),
      capped: true,
    });
    expect(await read(`${local.origin}/bytes/1000`, { maxBytes: 1000 })).toMatchObject({
      text: 'a'.repeat(1000),
      capped: false,
    });
  });

  it('gives up after timeoutMs, waiting for an answer or for its body, and hangs up', async () => {
    const started = Date.now();
    expect(await failure(`${local.origin}/silent`, { timeoutMs: 300 })).toBe(
      `timed out after 0.3 s fetching ${local.origin}/silent`,
    );
    expect(await failure(`${local.origin}/stall`, { timeoutMs: 300 })).toBe(
      `timed out after 0.3 s fetching ${local.origin}/stall`,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    await local.hungUp;
  });

  it("stops when the caller's signal aborts, and hangs up", async () => {
    const controller = new AbortController();
    const pending = failure(`${local.origin}/stall`, { signal: controller.signal });
    await local.stalled;
    controller.abort();
    expect(await pending).toBe(`fetching ${local.origin}/stall was aborted`);
    const timer = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('still open')), 2_000),
    );
    await Promise.race([local.hungUp, timer]);
  });

  it(`follows up to ${MAX_REDIRECTS} redirects, relative ones too, each on a new connection`, async () => {
    expect(await read(`${local.origin}/redirect/5`)).toEqual({
      url: `${local.origin}/redirect/0`,
      text: 'arrived',
      capped: false,
    });
    expect(local.paths).toHaveLength(6);
    expect(local.connections).toBe(6);
    expect((await read(`${local.origin}/relative`)).url).toBe(`${local.origin}/plain.txt`);
  });

  it('refuses a sixth redirect and a redirect loop', async () => {
    expect(await failure(`${local.origin}/redirect/6`)).toBe(
      `too many redirects: gave up after 5, at ${local.origin}/redirect/1`,
    );
    expect(local.paths).toEqual(['/redirect/6', ...[5, 4, 3, 2, 1].map((n) => `/redirect/${n}`)]);
    local.paths = [];
    expect(await failure(`${local.origin}/loop`)).toMatch(/^too many redirects/);
    expect(local.paths).toHaveLength(6);
  });

  it('refuses what is not an http(s) URL, given or redirected to', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/file', 'javascript:alert(1)']) {
      expect(await failure(url)).toBe(
        `only http:// and https:// URLs can be fetched, not ${url.split(':')[0]}:`,
      );
    }
    expect(await failure(`${local.origin}/to-file`)).toBe(
      'only http:// and https:// URLs can be fetched, not file:',
    );
    expect(await failure('not a url')).toBe('not a valid URL: not a url');
  });
});

describe('guardedFetch refuses addresses that are not public', () => {
  const byDefault = { allowAddress: undefined };

  beforeEach(() => {
    vi.stubEnv('QUANTA_FETCH_ALLOW_PRIVATE', undefined);
  });

  it('refuses IP literals without making any connection', async () => {
    const targets = guardConnections();
    for (const [host, range] of [
      [`127.0.0.1:${local.port}`, 'loopback'],
      ['10.0.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      [`[::1]:${local.port}`, 'loopback'],
      [`[::ffff:127.0.0.1]:${local.port}`, 'loopback'],
      ['[fe80::1]', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      // Other spellings of 127.0.0.1: the URL parser turns them into the address itself.
      ['2130706433', 'loopback'],
      ['0x7f000001', 'loopback'],
      [`127.1:${local.port}`, 'loopback'],
      ['[0:0:0:0:0:ffff:127.0.0.1]', 'loopback'],
    ] as const) {
      expect(await failure(`http://${host}/page.html`, byDefault)).toMatch(
        new RegExp(`^refused: \\S+ is not a public address \\(${range}\\)`),
      );
    }
    expect(targets).toEqual([]);
    expect(local.connections).toBe(0);
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
        expect(await failure(`http://${host}/page.html`, byDefault), address).toBe(
          `refused: ${address} is not a public address (${range})`,
        );
      }
    }
    expect(targets).toEqual([]);
  });

  it('refuses a name that resolves to a special-purpose address as the socket connects', async () => {
    let answer = '';
    resolveTo(() => [{ address: answer, family: isIP(answer) }]);
    const targets = guardConnections(['special.test']);
    for (const [address, range] of SPECIAL) {
      answer = address;
      expect(await failure('http://special.test/page.html', byDefault), address).toBe(
        `refused: special.test resolves to ${address}, which is not a public address (${range})`,
      );
    }
    expect(targets).toEqual(SPECIAL.map(() => 'special.test'));
  });

  it('lets a public address through to the connection, over http or https', async () => {
    const targets = guardConnections();
    for (const url of [
      'http://93.184.215.14/page.html',
      'https://[2606:4700:4700::1111]/page.html',
      'http://[::ffff:8.8.8.8]/page.html',
    ]) {
      expect(await failure(url, byDefault)).toMatch(
        /^cannot fetch .*: test guard: a connection to \S+ was attempted$/,
      );
    }
    expect(targets).toEqual(['93.184.215.14', '2606:4700:4700::1111', '::ffff:808:808']);
  });

  it('passes on what DNS says about a name it cannot resolve', async () => {
    vi.spyOn(dns, 'lookup').mockImplementation(((
      hostname: string,
      _options: unknown,
      callback: (error: Error) => void,
    ) => callback(new Error(`getaddrinfo ENOTFOUND ${hostname}`))) as typeof dns.lookup);
    guardConnections(['nowhere.test']);
    expect(await failure('http://nowhere.test/page.html', byDefault)).toBe(
      'cannot fetch http://nowhere.test/page.html: getaddrinfo ENOTFOUND nowhere.test',
    );
  });

  it('refuses a hostname that resolves to loopback as the socket connects', async () => {
    guardConnections();
    expect(await failure(`http://localhost:${local.port}/page.html`, byDefault)).toMatch(
      /^refused: localhost resolves to (127\.0\.0\.1|::1), which is not a public address \(loopback\) /,
    );
    expect(local.connections).toBe(0);
  });

  it('connects to the addresses it checked, whether Node asks for one or for all', async () => {
    let answer: dns.LookupAddress[] = [];
    resolveTo(() => answer);
    guardConnections(['local.test']);
    const url = `http://local.test:${local.port}/plain.txt`;
    const autoSelect = net.getDefaultAutoSelectFamily();
    try {
      for (const tryEach of [true, false]) {
        net.setDefaultAutoSelectFamily(tryEach);
        answer = [{ address: '127.0.0.1', family: 4 }];
        expect((await read(url)).text, `autoSelectFamily ${tryEach}`).toBe('plain text');
        answer = [...answer, { address: '10.0.0.1', family: 4 }];
        expect(await failure(url), `autoSelectFamily ${tryEach}`).toMatch(
          /^refused: local\.test resolves to 10\.0\.0\.1, which is not a public address \(private\)/,
        );
      }
      answer = [];
      expect(await failure(url)).toBe('local.test has no address');
    } finally {
      net.setDefaultAutoSelectFamily(autoSelect);
    }
  });

  it('refuses a redirect from an allowed address to a private one', async () => {
    const targets = guardConnections();
    expect((await read(`${local.origin}/plain.txt`)).text).toBe('plain text');
    expect(await failure(`${local.origin}/to-metadata`)).toBe(
      'refused: 169.254.169.254 is not a public address (linkLocal)',
    );
    expect(await failure(`${local.origin}/to-mapped`)).toMatch(
      /^refused: ::ffff:7f00:1 is not a public /,
    );
    expect(local.paths).toEqual(['/plain.txt', '/to-metadata', '/to-mapped']);
    expect(targets).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });
});
