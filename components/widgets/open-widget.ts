'use client';

import { useSearchParams } from 'next/navigation';
import { useSyncExternalStore } from 'react';

export const WIDGET_PARAM = 'widget';

// The open widget is React state first and the URL (`?widget=<toolCallId>`) second. Opening
// and closing re-render at once, outside any transition; the URL is written through the history
// API, which Next also turns into a router transition — one that can wait behind a slow
// refresh, so nothing here waits on it.
let open: { url: string; toolCallId: string | null } | undefined;
const listeners = new Set<() => void>();

const here = () => window.location.pathname + window.location.search;

function snapshot(): string | null {
  // A URL this module did not write (a navigation, Back or Forward) names its own widget.
  if (open?.url !== here()) {
    open = {
      url: here(),
      toolCallId: new URLSearchParams(window.location.search).get(WIDGET_PARAM),
    };
  }
  return open.toolCallId;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

/** Opens the widget of a tool call (null: closes it), then mirrors that into the URL. */
export function setOpenWidget(toolCallId: string | null): void {
  const url = new URL(window.location.href);
  if (toolCallId === null) url.searchParams.delete(WIDGET_PARAM);
  else url.searchParams.set(WIDGET_PARAM, toolCallId);
  open = { url: url.pathname + url.search, toolCallId };
  window.history.replaceState(null, '', url);
  for (const listener of listeners) listener();
}

/** The tool call whose widget is open, if any; on the server, the one the URL names. */
export function useOpenWidget(): string | null {
  const fromRequest = useSearchParams().get(WIDGET_PARAM);
  return useSyncExternalStore(subscribe, snapshot, () => fromRequest);
}
