import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { PostMessageBody } from '@/lib/protocol';
import { apiError } from '../api';
import type { ChatTransport } from './chat-store';
import type { AnswerChunk } from './streaming-answer';

/**
 * A turn's UI message stream as chunks. These come from this app's own server, whose chunks
 * the SDK made, so they are read as they are sent, unchecked.
 */
function chunksOf(response: Response): ReadableStream<AnswerChunk> {
  if (!response.body) throw new Error('The server sent an empty answer.');
  return response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(
      new TransformStream({
        transform({ data }, controller) {
          if (data !== '[DONE]') controller.enqueue(JSON.parse(data) as AnswerChunk);
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
 * which replays it from its first chunk.
 */
export function sessionTransport(sessionId: string): ChatTransport {
  return {
    async send(body: PostMessageBody, signal: AbortSignal) {
      const response = await fetch(`/api/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      return chunksOf(await ok(response));
    },
    async reconnect(signal: AbortSignal) {
      const response = await fetch(`/api/sessions/${sessionId}/stream`, { signal });
      if (response.status === 204) return null;
      return chunksOf(await ok(response));
    },
  };
}
