import { getEventListeners, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gate } from '@/tests/helpers/gate';
import { startLocalServer } from '@/tests/helpers/local-server';
import { CONNECT_TIMEOUT_MS, requestModel } from './model-request';

const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];
let held = gate();
/** What a request to /unread waits for before its body is read. */
let unread = gate();
const server = startLocalServer((req, res) => {
  if (req.url === '/unread') void unread.opened.then(() => answer(req, res));
  else answer(req, res);
});

function answer(req: IncomingMessage, res: ServerResponse) {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    seen.push({ method: req.method, headers: req.headers, body });
    if (req.url === '/hold') return held.open();
    if (req.url === '/gzip') {
      res.writeHead(500, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync('{"error":"packed"}'));
      return;
    }
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'r1' });
      res.write('data: one\n\n');
      res.end('data: two\n\n');
      return;
    }
    res.writeHead(429, 'Slow Down', [
      'content-type',
      'application/json',
      'set-cookie',
      'a=1',
      'set-cookie',
      'b=2',
    ]);
    res.end('{"error":"slow down"}');
  });
}

afterEach(() => {
  seen.length = 0;
  held = gate();
  unread = gate();
});

const text = async (body: AsyncIterable<Buffer>) => {
  let all = '';
  for await (const chunk of body) all += chunk.toString('utf8');
  return all;
};

describe('requestModel', () => {
  it('sends the method, headers and body a provider gives, and answers with the body unread', async () => {
    const payload = JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: 'Ça va — bien?' }],
    });
    const answer = await requestModel(`${server.origin}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: payload,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    expect(answer.headers.get('x-request-id')).toBe('r1');
    expect(await text(answer.body)).toBe('data: one\n\ndata: two\n\n');
    expect(seen).toEqual([
      {
        method: 'POST',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          authorization: 'Bearer k',
          'content-length': String(Buffer.byteLength(payload)),
        }),
        body: payload,
      },
    ]);
  });

  it("gives an error's status, reason and repeated headers as fetch would", async () => {
    const answer = await requestModel(new URL(`${server.origin}/limited`), {
      method: 'POST',
      body: '{}',
    });
    expect([answer.status, answer.statusText]).toEqual([429, 'Slow Down']);
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await text(answer.body)).toBe('{"error":"slow down"}');
  });

  it("fails as fetch does when nothing listens, so the SDK retries: 'fetch failed' and the cause", async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const failure = await requestModel(`http://127.0.0.1:${port}/`).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('rejects with the reason of a signal aborted before or while it waits', async () => {
    const before = new AbortController();
    before.abort();
    await expect(
      requestModel(`${server.origin}/events`, { signal: before.signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    const waiting = new AbortController();
    const answer = requestModel(`${server.origin}/hold`, { signal: waiting.signal });
    await held.opened;
    waiting.abort(new DOMException('Stopped', 'AbortError'));
    await expect(answer).rejects.toMatchObject({ name: 'AbortError', message: 'Stopped' });
  });

  it('ends the body with an error when the signal aborts while it streams', async () => {
    const stop = new AbortController();
    const answer = await requestModel(`${server.origin}/stall`, { signal: stop.signal });
    const reading = text(answer.body);
    stop.abort();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    await server.hungUp;
  });

  it('wraps any failure to connect or send as fetch does, not only the ones the SDK knows', async () => {
    // TLS to a plain HTTP server: an error (EPROTO) the SDK would not take for a network one.
    const failure = await requestModel(server.origin.replace('http:', 'https:')).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect((failure as TypeError).cause).toBeInstanceOf(Error);
  });

  it('gives up on a connection not made within the time fetch allows', async () => {
    const quiet = createServer();
    quiet.listen(0, '127.0.0.1');
    await once(quiet, 'listening');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { port } = quiet.address() as AddressInfo;
      const answer = requestModel(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
      // The socket is assigned on the next tick, and connects only at the next poll for I/O.
      await new Promise((resolve) => process.nextTick(resolve));
      vi.advanceTimersByTime(CONNECT_TIMEOUT_MS);
      const failure = (await answer) as TypeError;
      expect(failure).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
      expect(failure.cause).toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      vi.useRealTimers();
      quiet.close();
    }
  });

  it('decodes a compressed body, as fetch does though nothing asked for one', async () => {
    const answer = await requestModel(`${server.origin}/gzip`);
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(await text(answer.body)).toBe('{"error":"packed"}');
  });

  it('leaves nothing on the signal once the body is read or the request failed', async () => {
    const signal = new AbortController().signal;
    const answer = await requestModel(`${server.origin}/events`, { signal });
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    await text(answer.body);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await requestModel('http://127.0.0.1:1/', { signal }).catch(() => {});
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('sends large bodies whole, at once and one after another', async () => {
    const payload = (letter: string) =>
      JSON.stringify({ messages: [{ role: 'user', content: `Ça — ${letter.repeat(100_000)}` }] });
    const send = (letter: string) =>
      requestModel(`${server.origin}/events`, { method: 'POST', body: payload(letter) }).then(
        (answer) => text(answer.body),
      );
    await Promise.all([send('a'), send('b')]);
    await send('c');
    expect(seen.map(({ body }) => body).sort()).toEqual([payload('a'), payload('b'), payload('c')]);
    expect(seen.map(({ headers }) => headers['content-length'])).toEqual(
      Array(3).fill(String(Buffer.byteLength(payload('a')))),
    );
  });

  it('sends a large body whole while another waits to be read by its server', async () => {
    // More than this machine's kernel holds of a connection nobody reads (under 4 MB): 50 ms on,
    // the first request's bytes are still being written when the second's are.
    const payload = (letter: string) => JSON.stringify({ content: `Ça — ${letter.repeat(5e6)}` });
    const first = requestModel(`${server.origin}/unread`, { method: 'POST', body: payload('a') });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = requestModel(`${server.origin}/events`, { method: 'POST', body: payload('b') });
    unread.open();
    await Promise.all([first, second].map(async (answer) => text((await answer).body)));
    expect(seen.map(({ body }) => body).sort()).toEqual([payload('a'), payload('b')]);
  });

  it('takes text or bytes as a body, nothing else', async () => {
    await expect(
      requestModel(`${server.origin}/events`, { method: 'POST', body: new FormData() }),
    ).rejects.toThrow('requestModel sends a body of text or bytes only');
    const answer = await requestModel(`${server.origin}/events`, {
      method: 'POST',
      body: new TextEncoder().encode('bytes'),
    });
    await text(answer.body);
    expect(seen.at(-1)?.body).toBe('bytes');
  });
});
