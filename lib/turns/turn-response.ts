import { createUIMessageStreamResponse, type UIMessageChunk } from 'ai';

/**
 * A turn's chunks as the AI SDK's UI message stream response. `no-transform` keeps `next start`
 * (and proxies that honour it) from gzipping it: an event stream of small frames saves almost
 * no bytes that way, costs CPU on every frame, and a compressor may hold frames back.
 */
export function turnResponse(stream: ReadableStream<UIMessageChunk>): Response {
  return createUIMessageStreamResponse({
    stream,
    headers: { 'cache-control': 'no-cache, no-transform' },
  });
}
