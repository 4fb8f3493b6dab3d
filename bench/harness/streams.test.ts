import { describe, expect, it } from 'vitest';
import { openAiChunk, summarizeTimings, timeStream, uiChunk } from './streams';

function sse(...data: string[]): () => Promise<Response> {
  const body = data.map((line) => `data: ${line}\n\n`).join('');
  return async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

const ui = (chunk: object) => JSON.stringify(chunk);

describe('timeStream', () => {
  it('times the first text and the end of an answer that is the one expected', async () => {
    const timing = await timeStream(
      sse(
        ui({ type: 'start' }),
        ui({ type: 'text-delta', id: 't', delta: 'word ' }),
        ui({ type: 'text-delta', id: 't', delta: 'word ' }),
        '[DONE]',
      ),
      uiChunk,
      'word word ',
    );
    expect(timing).toMatchObject({ ok: true });
    if (timing.ok) expect(timing.totalMs).toBeGreaterThanOrEqual(timing.firstTextMs);
  });

  it('reads a chat-completions stream', async () => {
    const chunk = (content: string) => JSON.stringify({ choices: [{ delta: { content } }] });
    const timing = await timeStream(sse(chunk(''), chunk('word '), '[DONE]'), openAiChunk, 'word ');
    expect(timing.ok).toBe(true);
  });

  it('counts a short answer, an error chunk and a refusal as errors', async () => {
    const short = await timeStream(
      sse(ui({ type: 'text-delta', id: 't', delta: 'word ' })),
      uiChunk,
      'word word ',
    );
    expect(short).toEqual({ ok: false, error: 'answer of 5 characters, not 10' });
    const failed = await timeStream(
      sse(ui({ type: 'error', errorText: 'The model is unavailable.' })),
      uiChunk,
      'word ',
    );
    expect(failed).toEqual({ ok: false, error: 'The model is unavailable.' });
    const refused = await timeStream(
      async () => new Response('{"error":{"code":"rate_limited"}}', { status: 429 }),
      uiChunk,
      'word ',
    );
    expect(refused).toEqual({ ok: false, error: 'HTTP 429: {"error":{"code":"rate_limited"}}' });
  });
});

describe('summarizeTimings', () => {
  it('summarizes the answers that came and counts those that failed', () => {
    expect(
      summarizeTimings([
        { ok: true, firstTextMs: 10, totalMs: 100 },
        { ok: false, error: 'HTTP 500: boom' },
        { ok: true, firstTextMs: 30, totalMs: 300 },
      ]),
    ).toEqual({
      firstText: { n: 2, p50: 10, p99: 30 },
      total: { n: 2, p50: 100, p99: 300 },
      errors: 1,
      firstError: 'HTTP 500: boom',
    });
  });
});
