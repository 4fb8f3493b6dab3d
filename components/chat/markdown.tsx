'use client';

import {
  startTransition,
  use,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
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
  loading ??= import('./streamdown-markdown').then(
    (module) => {
      loaded = module;
      serverRendered.clear();
      return module;
    },
    (error: unknown) => {
      // The next text to mount tries again.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

const onServer = typeof window === 'undefined';
const noSubscription = () => () => {};

/**
 * Model text as markdown (see StreamdownMarkdown). The server renders it into the page's HTML.
 * In the browser, until the renderer has loaded, an answer that came with the page keeps the
 * server's rendering; an answer seen streaming shows as the text it is, so it appears at once,
 * and goes on showing it once it has ended; an answer loaded finished shows what the server
 * rendered of it, if this page has it, or else keeps its place, blank, rather than flash its
 * markdown as raw text (its text shows should the renderer's script fail to load; a text that
 * mounts after that tries again).
 *
 * No Suspense boundary waits for the renderer: React's server renderer sends a boundary of over
 * 500 bytes that comes after the page's first 12.8 kB on its own, after the rest, and reveals it
 * with a script up to 300 ms after the first paint. Every answer was one: the page's first
 * frames showed it blank.
 */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  // The server waits for the renderer (once a process): its answers are in the page's HTML.
  const serverRenderer = onServer ? use(loadMarkdown()) : undefined;
  const [renderer, setRenderer] = useState(() => serverRenderer ?? loaded);
  // Should its script fail to load (the network dropped), the answer shows as the text it is.
  const [unloadable, setUnloadable] = useState(false);
  // The text this copy was hydrated with, whose rendering the server's HTML holds; forgotten
  // once its text moves on (a replayed answer starts again from its first chunk), as what the
  // element held when it hydrated is then gone.
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  const [pageText, setPageText] = useState(hydrating ? text : undefined);
  if (pageText !== undefined && text !== pageText) setPageText(undefined);
  const box = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the row mounts
  useLayoutEffect(() => {
    const rendered = box.current?.querySelector(':scope > .markdown');
    if (!loaded && !streaming && pageText !== undefined && rendered)
      serverRendered.set(text, rendered.outerHTML);
  }, []);
  // An answer seen streaming keeps showing its text once it has ended, until the renderer is in.
  const [streamed, setStreamed] = useState(streaming);
  if (streaming && !streamed) setStreamed(true);
  // React leaves what an element with inner HTML holds as it finds it when it hydrates.
  const kept = text === pageText ? '' : streamed ? undefined : serverRendered.get(text);

  // The renderer's arrival renders every answer on the page again: as one update, that would be
  // the page's longest task. A copy that shows the server's rendering looks the same before and
  // after, so it changes in a transition, which React renders in slices with the page's other
  // tasks between them. A streaming answer's updates can restart it (the chat store's are
  // synchronous, every 50 ms), and after 5 s React renders it in one task. A copy that shows
  // anything else (its text, or its place, blank) changes at once, and so does one that comes to
  // while its transition waits: its text grew (a stream resumed), or, mounted again before the
  // renderer came, it renders again once `serverRendered` is emptied.
  const show = useEffectEvent((module: Renderer) => {
    if (kept === undefined) setRenderer(module);
    else startTransition(() => setRenderer(module));
  });
  useEffect(() => {
    if (!renderer)
      loadMarkdown().then(
        (module) => show(module),
        () => setUnloadable(true),
      );
  }, [renderer]);
  const shown = renderer ?? (kept === undefined ? loaded : undefined);

  if (shown) {
    return (
      <div ref={box} className="contents">
        <shown.StreamdownMarkdown text={text} streaming={streaming} />
      </div>
    );
  }
  if (kept !== undefined) {
    return (
      <div
        ref={box}
        className="contents"
        suppressHydrationWarning
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's own sanitised rendering of this text, from this page
        dangerouslySetInnerHTML={{ __html: kept }}
      />
    );
  }
  return (
    <div ref={box} className="contents">
      <div className={cn('whitespace-pre-wrap', !streamed && !unloadable && 'invisible')}>
        {text}
      </div>
    </div>
  );
}
