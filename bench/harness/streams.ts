import { type Summary, summarize } from './stats';

/** What one streamed answer took, as its client saw it, or why it failed. */
export type Timing =
  | { ok: true; firstTextMs: number; totalMs: number }
  | { ok: false; error: string };

/** What one `data:` payload of a stream carries: text, an error, or neither. */
export type ChunkReader = (data: string) => { text?: string; error?: string };

/** A chat-completions stream (the model read directly): `choices[0].delta.content`. */
export const openAiChunk: ChunkReader = (data) => {
  if (data === '[DONE]') return {};
  const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
  return { text: chunk.choices?.[0]?.delta?.content };
};

/** An AI SDK UI message stream (the bare route, Quanta): `text-delta` and `error` chunks. */
export const uiChunk: ChunkReader = (data) => {
  if (data === '[DONE]') return {};
  const chunk = JSON.parse(data) as { type: string; delta?: string; errorText?: string };
  if (chunk.type === 'error') return { error: chunk.errorText ?? 'error chunk' };
  return chunk.type === 'text-delta' ? { text: chunk.delta } : {};
};

/**
 * Sends `request` and reads its server-sent events to the end, timing from just before the
 * request to the first non-empty text and to the end. The answer must be `expected` exactly:
 * a short or broken one counts as an error, as an error chunk or a status other than 200 do.
 */
export async function timeStream(
  request: () => Promise<Response>,
  chunkOf: ChunkReader,
  expected: string,
): Promise<Timing> {
  const started = performance.now();
  let firstText: number | undefined;
  let text = '';
  try {
    const response = await request();
    if (response.status !== 200 || !response.body) {
      return {
        ok: false,
        error: `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`,
      };
    }
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffered += decoder.decode(read.value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data: ')) continue;
        const chunk = chunkOf(line.slice('data: '.length));
        if (chunk.error) return { ok: false, error: chunk.error };
        if (!chunk.text) continue;
        firstText ??= performance.now();
        text += chunk.text;
      }
    }
  } catch (error) {
    return { ok: false, error: String(error) };
  }
  if (firstText === undefined || text !== expected) {
    return { ok: false, error: `answer of ${text.length} characters, not ${expected.length}` };
  }
  return { ok: true, firstTextMs: firstText - started, totalMs: performance.now() - started };
}

/** A set of answers: first text and whole answer, over those that succeeded, and failures. */
export type TimingSummary = {
  firstText: Summary;
  total: Summary;
  errors: number;
  /** The first failure's reason, to tell a misconfiguration from load. */
  firstError?: string;
};

export function summarizeTimings(timings: readonly Timing[]): TimingSummary {
  const ok = timings.flatMap((timing) => (timing.ok ? [timing] : []));
  const failed = timings.flatMap((timing) => (timing.ok ? [] : [timing.error]));
  return {
    firstText: summarize(ok.map(({ firstTextMs }) => firstTextMs)),
    total: summarize(ok.map(({ totalMs }) => totalMs)),
    errors: failed.length,
    ...(failed.length > 0 ? { firstError: failed[0] } : {}),
  };
}
