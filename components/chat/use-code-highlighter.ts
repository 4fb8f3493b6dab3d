'use client';

import { useEffect, useState } from 'react';
import type { PluginConfig } from 'streamdown';

// A fence opens a line: ``` or ~~~, indented at most three spaces (CommonMark).
const CODE_FENCE = /^ {0,3}(```|~~~)/m;

let loaded: PluginConfig | undefined;
let loading: Promise<PluginConfig> | undefined;

function loadHighlighter(): Promise<PluginConfig> {
  loading ??= import('@streamdown/code').then(({ code }) => {
    loaded = { code };
    return loaded;
  });
  return loading;
}

/**
 * Streamdown's plugins with the code highlighter (shiki, the largest script of the chat) once
 * `text` has a code block and the highlighter has loaded; undefined before. A text without code
 * never loads it.
 */
export function useCodeHighlighter(text: string): PluginConfig | undefined {
  const needed = CODE_FENCE.test(text);
  const [plugins, setPlugins] = useState(loaded);
  useEffect(() => {
    if (!needed || plugins) return;
    let mounted = true;
    void loadHighlighter().then((ready) => {
      if (mounted) setPlugins(ready);
    });
    return () => {
      mounted = false;
    };
  }, [needed, plugins]);
  return needed ? plugins : undefined;
}
