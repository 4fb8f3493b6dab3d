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
