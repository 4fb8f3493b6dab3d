'use client';

import { useEffect, useState } from 'react';
import type { PluginConfig } from 'streamdown';
import { workerHighlighter } from './worker-highlighter';

// A fence opens a line: ``` or ~~~, indented at most three spaces (CommonMark).
const CODE_FENCE = /^ {0,3}(```|~~~)/m;

// One highlighter (and its worker) for the page, started by the first text with a code block.
let started: PluginConfig | undefined;

/**
 * Streamdown's plugins with the code highlighter once `text` has a code block; undefined
 * before, and always for a text without one, which never starts it. The highlighter (shiki,
 * the largest script a chat loads) runs in a worker; until a block's tokens come back, its
 * code shows plain, in the same layout.
 */
export function useCodeHighlighter(text: string): PluginConfig | undefined {
  const needed = CODE_FENCE.test(text);
  const [plugins, setPlugins] = useState(started);
  // Started after the first render, which must match the server's (no worker there).
  useEffect(() => {
    if (!needed || plugins) return;
    started ??= { code: workerHighlighter() };
    setPlugins(started);
  }, [needed, plugins]);
  return needed ? plugins : undefined;
}
