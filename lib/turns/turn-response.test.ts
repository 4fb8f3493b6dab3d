import type { UIMessageChunk } from 'ai';
import { expect, it } from 'vitest';
import { turnResponse } from './turn-response';

it('is an event stream that proxies and next start must not compress', async () => {
  const response = turnResponse(
    new ReadableStream<UIMessageChunk>({
      start(controller) {
        controller.enqueue({ type: 'start' });
        controller.close();
      },
    }),
  );
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(response.headers.get('cache-control')).toMatch(/(^|,)\s*no-transform\s*(,|$)/);
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  expect(await response.text()).toBe('data: {"type":"start"}\n\ndata: [DONE]\n\n');
});
