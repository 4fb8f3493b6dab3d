'use client';

import { code } from '@streamdown/code';
import { Streamdown } from 'streamdown';

const plugins = { code };

/**
 * Model text as markdown, also while it streams (unfinished syntax is completed for display).
 * Raw HTML is dropped, not rendered; code blocks are highlighted and have a copy button.
 */
export function Markdown({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <Streamdown
      plugins={plugins}
      skipHtml
      mode={streaming ? 'streaming' : 'static'}
      isAnimating={streaming}
      className="markdown"
    >
      {text}
    </Streamdown>
  );
}
