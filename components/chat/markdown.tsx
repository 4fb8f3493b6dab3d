'use client';

import { lazy, Suspense } from 'react';

// The markdown renderer (Streamdown, with remark, rehype and marked) is the chat's largest
// script after the framework: it loads when the first answer shows, not with the page.
const StreamdownMarkdown = lazy(() =>
  import('./streamdown-markdown').then((module) => ({ default: module.StreamdownMarkdown })),
);

/**
 * Model text as markdown (see StreamdownMarkdown). Until the renderer has loaded, the text
 * shows as it is, so a streamed answer appears at once; a page rendered on the server has the
 * markdown already and keeps it while the renderer loads.
 */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
      <StreamdownMarkdown text={text} streaming={streaming} />
    </Suspense>
  );
}
