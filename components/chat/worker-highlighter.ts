import type { CodeHighlighterPlugin, HighlightOptions, HighlightResult } from 'streamdown';

export type HighlightRequest = { id: number; options: HighlightOptions };
export type HighlightReply = { id: number; result: HighlightResult };

// GitHub's "default" themes keep every token at 4.5:1 on the page (plain github-light's orange
// is 3.5:1 on white).
const themes: ['github-light-default', 'github-dark-default'] = [
  'github-light-default',
  'github-dark-default',
];

/**
 * Streamdown's code highlighter, run in a worker (`highlight-worker.ts`, @streamdown/code's
 * shiki highlighter): each code block's tokens come back by message, so the page's thread never
 * waits on shiki.
 */
export function workerHighlighter(): CodeHighlighterPlugin {
  const worker = new Worker(new URL('./highlight-worker.ts', import.meta.url));
  const waiting = new Map<number, (result: HighlightResult) => void>();
  let nextId = 0;
  worker.onmessage = ({ data: { id, result } }: MessageEvent<HighlightReply>) => {
    waiting.get(id)?.(result);
    waiting.delete(id);
  };
  return {
    name: 'shiki',
    type: 'code-highlighter',
    getThemes: () => themes,
    // The worker knows the languages; one it lacks comes back as plain text.
    supportsLanguage: () => true,
    getSupportedLanguages: () => [],
    highlight(options, callback) {
      const id = nextId++;
      if (callback) waiting.set(id, callback);
      worker.postMessage({ id, options } satisfies HighlightRequest);
      return null;
    },
  };
}
