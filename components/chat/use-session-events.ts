'use client';

import { useEffect, useRef } from 'react';
import type { SessionEvent } from '@/lib/protocol';

/**
 * Listens to the live events of a session (a turn starting or ending, a widget's new state)
 * for as long as the component is mounted. The browser's EventSource reconnects by itself
 * after a network failure; a refusal (the session was deleted or made private) ends it.
 */
export function useSessionEvents(
  sessionId: string,
  onEvent: (event: SessionEvent) => void,
  /**
   * Called when the stream is connected: `again` after a failure (events sent in between are
   * lost), not again at first; what was true before it connected may be stale either way.
   */
  onOpen?: (again: boolean) => void,
): void {
  // The latest callbacks, so that new ones each render do not open a new connection.
  const handler = useRef(onEvent);
  const opened = useRef(onOpen);
  useEffect(() => {
    handler.current = onEvent;
    opened.current = onOpen;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/events`);
    let again = false;
    source.onopen = () => {
      opened.current?.(again);
      again = true;
    };
    source.onmessage = (message: MessageEvent<string>) => {
      let event: SessionEvent;
      try {
        event = JSON.parse(message.data);
      } catch {
        return;
      }
      if (typeof event === 'object' && event !== null && typeof event.type === 'string') {
        handler.current(event);
      }
    };
    return () => source.close();
  }, [sessionId]);
}
