/**
 * A messages route's answer as the AI SDK's UI message stream (server-sent events): one text
 * part whose deltas `write` emits, at its own pace; the stream finishes when `write` resolves.
 */
export function textAnswer(
  messageId: string,
  write: (delta: (text: string) => void) => Promise<void>,
): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      async start(controller) {
        const send = (chunk: object) =>
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
        send({ type: 'start', messageId });
        send({ type: 'start-step' });
        send({ type: 'text-start', id: 't' });
        await write((text) => send({ type: 'text-delta', id: 't', delta: text }));
        send({ type: 'text-end', id: 't' });
        send({ type: 'finish-step' });
        send({ type: 'finish' });
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

/** A UI message stream (server-sent events) of these chunks, ended. */
export function uiStream(chunks: object[]): Response {
  const events = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  return new Response([...events, 'data: [DONE]\n\n'].join(''), {
    headers: { 'content-type': 'text/event-stream' },
  });
}

/**
 * Reads a UI message stream response (server-sent events) chunk by chunk, as it arrives: `take`
 * waits for the next `count` chunks, `rest` for all of them to the end of the stream.
 */
export function uiChunks(response: Response) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const ready: { type: string; [key: string]: unknown }[] = [];
  const next = async () => {
    while (ready.length === 0 && !ended) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer.slice(0, end).replace(/^data: /, '');
        buffer = buffer.slice(end + 2);
        if (data !== '[DONE]') ready.push(JSON.parse(data));
      }
    }
    return ready.shift();
  };
  const take = async (count: number) => {
    const chunks: NonNullable<Awaited<ReturnType<typeof next>>>[] = [];
    while (chunks.length < count) {
      const chunk = await next();
      if (!chunk) break;
      chunks.push(chunk);
    }
    return chunks;
  };
  return { take, rest: () => take(Number.POSITIVE_INFINITY), cancel: () => reader.cancel() };
}
