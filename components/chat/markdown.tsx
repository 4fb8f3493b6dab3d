'use client';

import { lazy, Suspense, useLayoutEffect, useRef, useState } from 'react';
import { cn } from '../ui/cn';

// The markdown renderer (Streamdown, with remark, rehype and marked) is the chat's largest
// script after the framework: it loads when the first answer shows, not with the page.
type Renderer = typeof import('./streamdown-markdown');
let loaded: Renderer | undefined;
let loading: Promise<Renderer> | undefined;

/**
 * What the server rendered of the finished answers the page came with, by text, until the
 * renderer has loaded: the transcript mounts its rows again when it virtualises them, at once
 * after hydration, and those copies show it rather than wait for the renderer.
 */
const serverRendered = new Map<string, string>();

/** Loads the markdown renderer, once; a text that mounts after it has loaded renders at once. */
export function loadMarkdown(): Promise<Renderer> {
  loading ??= import('./streamdown-markdown').then((module) => {
    loaded = module;
    serverRendered.clear();
    return module;
  });
  return loading;
}

const LazyMarkdown = lazy(() =>
  loadMarkdown().then((module) => ({ default: module.StreamdownMarkdown })),
);

/**
 * Model text as markdown (see StreamdownMarkdown). Until the renderer has loaded, an answer seen
 * streaming shows as the text it is, so it appears at once, and goes on showing it once it has
 * ended; an answer loaded finished shows what the server rendered of it, if this page has it, or
 * else keeps its place, blank, rather than flash its markdown as raw text. Blank is also what the
 * server's HTML shows of an answer React streams after the rest of the page (Suspense
 * outlining), until it is revealed.
 */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  // Chosen once: a text that switched renderers when the script arrived would mount again.
  const [Renderer] = useState(() => loaded?.StreamdownMarkdown ?? LazyMarkdown);
  const box = useRef<HTMLDivElement>(null);
  // Hydrated before the renderer has loaded, the box holds the server's rendering, untouched.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the row mounts
  useLayoutEffect(() => {
    const rendered = box.current?.querySelector(':scope > .markdown');
    if (!loaded && !streaming && rendered) serverRendered.set(text, rendered.outerHTML);
  }, []);
  // An answer seen streaming keeps showing its text once it has ended, until the renderer is in.
  const [streamed, setStreamed] = useState(streaming);
  if (streaming && !streamed) setStreamed(true);
  const kept = streamed || loaded ? undefined : serverRendered.get(text);
  return (
    <div ref={box} className="contents">
      <Suspense
        fallback={
          kept === undefined ? (
            <div className={cn('whitespace-pre-wrap', !streamed && 'invisible')}>{text}</div>
          ) : (
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own sanitised rendering of this text, from this page
            <div className="contents" dangerouslySetInnerHTML={{ __html: kept }} />
          )
        }
      >
        <Renderer text={text} streaming={streaming} />
      </Suspense>
    </div>
  );
}
