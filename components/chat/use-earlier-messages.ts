'use client';

import { useCallback, useRef, useState } from 'react';
import type { MessagePage, WidgetState } from '@/lib/protocol';
import { api } from '../api';
import type { SessionChat } from './use-session-chat';

/** Where loading the page before the tab's first message stands. */
export type EarlierState = 'idle' | 'loading' | 'failed';

type EarlierOptions = {
  sessionId: string;
  chat: Pick<SessionChat, 'hasEarlier' | 'addEarlier' | 'chat'>;
  /** Told the states of the widgets the earlier messages opened. */
  rememberState: (key: string, state: WidgetState) => void;
};

/**
 * Loads the messages before the first one the tab holds, a page at a time
 * (`GET /api/sessions/:id/messages?before=`), when the reader scrolls up to them or asks.
 * One request at a time; a failure is shown and the next ask tries again.
 */
export function useEarlierMessages({ sessionId, chat, rememberState }: EarlierOptions) {
  const [state, setState] = useState<EarlierState>('idle');
  const loading = useRef(false);
  const { hasEarlier, addEarlier, chat: current } = chat;

  const loadEarlier = useCallback(async () => {
    const before = current.messages[0]?.id;
    if (loading.current || !hasEarlier || before === undefined) return;
    loading.current = true;
    setState('loading');
    try {
      const page = await api<MessagePage>(
        `/api/sessions/${sessionId}/messages?before=${encodeURIComponent(before)}`,
      );
      for (const [key, widgetState] of Object.entries(page.widgetStates)) {
        rememberState(key, widgetState);
      }
      addEarlier(page, before);
      setState('idle');
    } catch {
      setState('failed');
    } finally {
      loading.current = false;
    }
  }, [sessionId, current, hasEarlier, addEarlier, rememberState]);

  return { state, loadEarlier };
}
