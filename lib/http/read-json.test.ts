import { describe, expect, it } from 'vitest';
import { HttpError } from './errors';
import { findUnstorableText, readJson } from './read-json';

const schema = { type: 'object' };

function post(body: string): Request {
  return new Request('http://quanta.test/', { method: 'POST', body });
}

async function refusal(body: string): Promise<HttpError> {
  const error = await readJson(post(body), schema, 64 * 1024).catch((caught: unknown) => caught);
  if (!(error instanceof HttpError)) throw new Error(`not refused: ${body}`);
  return error;
}

describe('readJson', () => {
  it.each([
    ['a NUL in a value', '{"title":"a\\u0000b"}', 'title'],
    [
      'a lone high surrogate',
      '{"message":{"parts":[{"text":"x\\ud800"}]}}',
      'message.parts[0].text',
    ],
    ['a lone low surrogate', '["ok","\\udc00"]', '[1]'],
    ['a NUL in a key', '{"a\\u0000":1}', 'a\u0000'],
    ['a NUL at the root', '"\\u0000"', 'body'],
  ])('refuses %s with a 400 that names where', async (_case, body, path) => {
    const error = await refusal(body);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_text');
    expect(error.message).toBe(
      `${path}: contains a NUL character or an unpaired surrogate, which cannot be stored.`,
    );
  });

  it('takes emoji and other well-formed text as it is', async () => {
    const body = { title: '😀 naïve 中文 \u2028' };
    expect(await readJson(post(JSON.stringify(body)), schema, 1024)).toEqual(body);
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    const deep = `${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}`;
    expect(findUnstorableText(JSON.parse(deep))).toMatch(/^(\[0\])+$/);
  });

  it('refuses malformed JSON and an oversized body', async () => {
    expect((await refusal('{"a":')).code).toBe('invalid_json');
    const huge = await readJson(post(JSON.stringify({ a: 'x'.repeat(100) })), schema, 10).catch(
      (caught: unknown) => caught as HttpError,
    );
    expect(huge).toMatchObject({ status: 413, code: 'too_large' });
  });

  it('stops reading a body without Content-Length once it is over the limit', async () => {
    const chunk = new Uint8Array(1024).fill(0x20);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
        if (pulled === 1000) controller.close();
      },
    });
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const error = await readJson(request, schema, 4 * 1024).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 413, code: 'too_large' });
    // A few chunks past the limit at most (the stream reads ahead), not the whole megabyte.
    expect(pulled).toBeLessThan(10);
  });

  it('decodes a character split between two chunks', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ title: '😀' }));
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 12));
        controller.enqueue(bytes.slice(12));
        controller.close();
      },
    });
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: split,
      duplex: 'half',
    } as RequestInit);
    expect(await readJson(request, schema, 1024)).toEqual({ title: '😀' });
  });
});
