'use client';

import { useEffect, useRef } from 'react';
import type { SessionEvent } from '@/lib/events/session-events';

export type { SessionEvent };

/**
 * Listens to the live events of a session (a turn starting or ending, a widget's new state)
 * for as long as the component is mounted. The browser's EventSource reconnects by itself
 * after a network failure; a refusal (the session was deleted or made private) ends it.
 */
export function useSessionEvents(sessionId: string, onEvent: (event: SessionEvent) => void): void {
  // The latest callback, so that a new one each render does not open a new connection.
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/events`);
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
