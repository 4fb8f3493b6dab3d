'use client';

import { useEffect, useRef } from 'react';
import type { SessionEvent } from '@/lib/events/session-events';

export type { SessionEvent };

/**
 * Listens to the live events of a session (a turn starting or ending, a widget's new state)
 * for as long as the component is mounted. The browser's EventSource reconnects by itself
 * after a network failure; a refusal (the session was deleted or made private) ends it.
 */
export function useSessionEvents(
  sessionId: string,
  onEvent: (event: SessionEvent) => void,
  /** Called when the connection comes back after a failure (events in between are lost). */
  onReconnect?: () => void,
): void {
  // The latest callbacks, so that new ones each render do not open a new connection.
  const handler = useRef(onEvent);
  const reconnected = useRef(onReconnect);
  useEffect(() => {
    handler.current = onEvent;
    reconnected.current = onReconnect;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/events`);
    let opened = false;
    source.onopen = () => {
      if (opened) reconnected.current?.();
      opened = true;
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
