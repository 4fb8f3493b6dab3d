// @vitest-environment node
import { renderToReadableStream } from 'react-dom/server';
import { expect, it } from 'vitest';
import { Markdown } from './markdown';

it('waits for the renderer on the server and renders the answer in place, with no boundary', async () => {
  // The module is fresh: its renderer has not loaded, as on a server's first page.
  const stream = await renderToReadableStream(
    <Markdown text={'## Here\n\nAt **once**.'} streaming={false} />,
  );
  await stream.allReady;
  const html = await new Response(stream).text();
  expect(html).toMatch(/^<div class="contents"><div[^>]* class="[^"]*markdown/);
  expect(html).toContain('data-streamdown="strong"');
  expect(html).not.toContain('<!--$');
});
