'use client';

import { useState } from 'react';
import {
  defaultRehypePlugins,
  defaultRemarkPlugins,
  type PluginConfig,
  Streamdown,
} from 'streamdown';
import { imagesAsLinks } from './images-as-links';
import { LinkPrompt } from './link-prompt';
import { useCodeHighlighter } from './use-code-highlighter';

// Without rehype-raw, HTML in the model's text is never parsed into elements: it shows as the
// text it is. (Sanitising and link hardening stay.)
const rehypePlugins = Object.entries(defaultRehypePlugins)
  .filter(([name]) => name !== 'raw')
  .map(([, plugin]) => plugin);
const remarkPlugins = [...Object.values(defaultRemarkPlugins), imagesAsLinks];
const linkSafety = { enabled: true, renderModal: LinkPrompt };
// Streamdown sizes headings for a document (h1 at 30 px); in an answer they stay modest.
const headings =
  '[&_h1]:text-xl [&_h2]:text-lg [&_h3]:text-base [&_h4]:text-base [&_h5]:text-sm [&_h6]:text-sm';
const noPlugins: PluginConfig = {};

/**
 * Model text as markdown, also while it streams (unfinished syntax is completed for display).
 * Raw HTML shows as text, never as elements; an image shows as a link to it, never loaded;
 * code blocks have a copy button, and are highlighted once the highlighter has loaded (it loads
 * only for a text with a code block; until then the code shows plain, in the same layout).
 */
export function StreamdownMarkdown({ text, streaming }: { text: string; streaming: boolean }) {
  const plugins = useCodeHighlighter(text) ?? noPlugins;
  // An answer that has streamed here stays in streaming mode. It renders block by block and
  // keeps the blocks that did not change; static mode renders the whole text in one pass, so
  // switching when the stream ends would render all of it again at once, the longest task of a
  // long answer. Unfinished syntax is completed only while it streams, so a finished answer
  // reads as static mode would show it.
  const [streamed, setStreamed] = useState(streaming);
  if (streaming && !streamed) setStreamed(true);
  return (
    <Streamdown
      plugins={plugins}
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      linkSafety={linkSafety}
      mode={streamed ? 'streaming' : 'static'}
      parseIncompleteMarkdown={streaming}
      isAnimating={streaming}
      className={`markdown ${headings}`}
    >
      {text}
    </Streamdown>
  );
}
