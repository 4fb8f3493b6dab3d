import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import { pullThrough } from '../streams/pull-through';

const encoder = new TextEncoder();

/**
 * A turn's chunks as the AI SDK's UI message stream response, each chunk encoded as its event
 * in one step (the SDK's own response takes two streams, each with its promises per chunk).
 * `no-transform` keeps `next start` (and proxies that honour it) from gzipping it: an event
 * stream of small frames saves almost no bytes that way, costs CPU on every frame, and a
 * compressor may hold frames back.
 */
export function turnResponse(stream: ReadableStream<UIMessageChunk>): Response {
  const events = pullThrough<UIMessageChunk, Uint8Array>(stream, {
    transform(chunk, controller) {
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
    },
    flush(controller) {
      controller.enqueue(encoder.encode('data: [DONE]\n\n'));
    },
  });
  return new Response(events, {
    headers: { ...UI_MESSAGE_STREAM_HEADERS, 'cache-control': 'no-cache, no-transform' },
  });
}
