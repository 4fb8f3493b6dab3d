import type { ChatTransport, UIMessageChunk } from 'ai';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { QuantaMessage } from '@/lib/protocol';
import { apiError } from '../api';

/**
 * A turn's UI message stream as chunks. The SDK's own transport checks every chunk against its
 * zod schema, a parse per streamed frame; these come from this app's own server, whose chunks
 * the SDK made, so they are read as they are sent.
 */
function chunksOf(response: Response): ReadableStream<UIMessageChunk> {
  if (!response.body) throw new Error('The server sent an empty answer.');
  return response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(
      new TransformStream({
        transform({ data }, controller) {
          if (data !== '[DONE]') controller.enqueue(JSON.parse(data) as UIMessageChunk);
        },
      }),
    );
}

/** `response`, or the server's refusal (409 while a turn runs, a model gone) as an ApiError. */
async function ok(response: Response): Promise<Response> {
  if (!response.ok) throw await apiError(response);
  return response;
}

/**
 * How a session's chat reaches the server. The server holds the history: only the new (or
 * edited) message travels. A running turn is read from its stream route (204 when none runs),
 * which replays it from its first chunk: the SDK then starts the answer afresh at the stream's
 * start chunk, whose id is the partial answer's the page holds, so the replay replaces it
 * instead of adding to it or beside it.
 */
export function sessionTransport(sessionId: string): ChatTransport<QuantaMessage> {
  return {
    resumeStreamIsReplay: true,
    async sendMessages({ trigger, messageId, messages, abortSignal }) {
      const body =
        trigger === 'regenerate-message'
          ? { trigger: 'regenerate' }
          : { trigger: messageId ? 'edit' : 'submit', message: messages.at(-1) };
      const response = await fetch(`/api/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: abortSignal,
      });
      return chunksOf(await ok(response));
    },
    async reconnectToStream({ abortSignal }) {
      const response = await fetch(`/api/sessions/${sessionId}/stream`, { signal: abortSignal });
      if (response.status === 204) return null;
      return chunksOf(await ok(response));
    },
  };
}
