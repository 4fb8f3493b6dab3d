import type { CodeHighlighterPlugin, HighlightOptions, HighlightResult } from 'streamdown';

export type HighlightRequest = { id: number; options: HighlightOptions };
export type HighlightReply = { id: number; result: HighlightResult };

// GitHub's "default" themes keep every token at 4.5:1 on the page (plain github-light's orange
// is 3.5:1 on white).
const themes: ['github-light-default', 'github-dark-default'] = [
  'github-light-default',
  'github-dark-default',
];

/** Highlighted blocks kept on the page's side: enough for the rows near the view. */
const KEPT_BLOCKS = 200;

/**
 * Streamdown's code highlighter, run in a worker (`highlight-worker.ts`, @streamdown/code's
 * shiki highlighter): each code block's tokens come back by message, so the page's thread never
 * waits on shiki. The tokens of the latest blocks are kept here and given at once, as
 * @streamdown/code's own cache does: a row the virtualised transcript renders again does not
 * show its code plain for a round trip.
 */
export function workerHighlighter(): CodeHighlighterPlugin {
  const worker = new Worker(new URL('./highlight-worker.ts', import.meta.url));
  const waiting = new Map<number, { key: string; callback?: (result: HighlightResult) => void }>();
  const kept = new Map<string, HighlightResult>();
  let nextId = 0;
  worker.onmessage = ({ data: { id, result } }: MessageEvent<HighlightReply>) => {
    const request = waiting.get(id);
    waiting.delete(id);
    if (!request) return;
    kept.set(request.key, result);
    // The oldest first, as a Map iterates.
    if (kept.size > KEPT_BLOCKS) kept.delete(kept.keys().next().value as string);
    request.callback?.(result);
  };
  return {
    name: 'shiki',
    type: 'code-highlighter',
    getThemes: () => themes,
    // The worker knows the languages; one it lacks comes back as plain text.
    supportsLanguage: () => true,
    getSupportedLanguages: () => [],
    highlight(options, callback) {
      const key = `${options.language}\n${options.themes.join(',')}\n${options.code}`;
      const known = kept.get(key);
      if (known) return known;
      const id = nextId++;
      waiting.set(id, { key, callback });
      worker.postMessage({ id, options } satisfies HighlightRequest);
      return null;
    },
  };
}
