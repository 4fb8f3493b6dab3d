import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gate } from '@/tests/helpers/gate';
import { startLocalServer } from '@/tests/helpers/local-server';
import { requestModel } from './model-request';

const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];
let held = gate();
const server = startLocalServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => {
    body += chunk;
  });
  req.on('end', () => {
    seen.push({ method: req.method, headers: req.headers, body });
    if (req.url === '/hold') return held.open();
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
});

afterEach(() => {
  seen.length = 0;
  held = gate();
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
