/** One server-sent event's JSON data, and when it arrived (Date.now()). */
export type Received = { data: { type: string; [key: string]: unknown }; at: number };

/**
 * A server-sent event stream read as it comes, unlike Playwright's request context, which
 * returns a body only once it is complete: a running turn, or a session's live events.
 */
export type SseReader = {
  status: number;
  /** Every `data:` event so far, in order (the closing `[DONE]` and comments left out). */
  events: Received[];
  /** Whether the stream has ended. */
  ended(): boolean;
  /** Resolves with when the stream ended: closed by the server, broken, or aborted. */
  end: Promise<number>;
  /** Drops the connection, as a client going away does. */
  abort(): void;
};

/** Requests `url` and reads its answer as server-sent events until it ends. */
export async function readSse(url: string, init: RequestInit = {}): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, { ...init, signal: controller.signal });
  const events: Received[] = [];
  let endedAt: number | undefined;
  const end = (async () => {
    if (!response.body) return Date.now();
    const decoder = new TextDecoder();
    let buffered = '';
    const reader = response.body.getReader();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffered += decoder.decode(read.value, { stream: true });
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop() ?? '';
        for (const block of blocks) {
          for (const line of block.split('\n')) {
            if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
            events.push({ data: JSON.parse(line.slice('data: '.length)), at: Date.now() });
          }
        }
      }
    } catch {
      // Aborted, or the server went away: the stream has ended either way.
    }
    return Date.now();
  })().then((at) => {
    endedAt = at;
    return at;
  });
  return {
    status: response.status,
    events,
    ended: () => endedAt !== undefined,
    end,
    abort: () => controller.abort(),
  };
}

/** The text a UI message stream's events carried up to now (or up to time `until`). */
export function streamedText(events: Received[], until = Number.POSITIVE_INFINITY): string {
  return events
    .filter(({ data, at }) => data.type === 'text-delta' && at <= until)
    .map(({ data }) => data.delta as string)
    .join('');
}

/** Waits until `condition` holds, checking every 20 ms; fails saying `what` after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
