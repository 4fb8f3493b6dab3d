'use client';

import type { UseChatHelpers } from '@ai-sdk/react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatStatus } from 'ai';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { QuantaMessage, SessionDetail, SessionView, WidgetState } from '@/lib/protocol';
import { api, refreshSessions } from '../api';
import { useSessionEvents } from './use-session-events';

type LiveSessionOptions = {
  session: SessionView;
  /** The latest state of each widget acted on, by state key, as the page was loaded. */
  initialWidgetStates: Record<string, WidgetState>;
  /** This tab's own turn: its stream brings its answer, events about it are not news. */
  status: ChatStatus;
  setMessages: UseChatHelpers<QuantaMessage>['setMessages'];
  /** Told the session as the server holds it after each catch-up (its title may have changed). */
  onSessionView?: (session: SessionView) => void;
};

/**
 * What happens to a session outside this tab's own stream: widget states changed by anyone, and
 * turns run elsewhere (the owner's other tab; for a reader, the owner), announced while they run
 * and loaded when they end. Events are not replayed, so after a reconnection, or a stream of
 * this tab's that broke, the transcript is loaded again ("catch-up").
 */
export function useLiveSession({
  session,
  initialWidgetStates,
  status,
  setMessages,
  onSessionView,
}: LiveSessionOptions) {
  const queryClient = useQueryClient();
  const running = status === 'submitted' || status === 'streaming';
  const [widgetStates, setWidgetStates] = useState(initialWidgetStates);
  // A newer version wins, whether it came from this tab's action or another viewer's.
  const rememberState = useCallback((key: string, state: WidgetState) => {
    setWidgetStates((states) => {
      const known = states[key];
      return known && known.version >= state.version ? states : { ...states, [key]: state };
    });
  }, []);
  // A reload in the middle of a turn: it runs on the server, and shows when it ends.
  const [remoteTurn, setRemoteTurn] = useState(session.turnActive);
  const ownTurn = useRef(false);

  /** Loads what the server holds now: after a turn run elsewhere, or a lost connection. */
  const catchUp = () =>
    api<SessionDetail>(`/api/sessions/${session.id}`)
      .then((latest) => {
        // A prompt the server refused is only here: it stays, for Retry.
        setMessages((current) => {
          const unsent = current.at(-1);
          return unsent?.role === 'user' && !latest.messages.some(({ id }) => id === unsent.id)
            ? [...latest.messages, unsent]
            : latest.messages;
        });
        for (const [key, state] of Object.entries(latest.widgetStates)) rememberState(key, state);
        setRemoteTurn(latest.session.turnActive);
        onSessionView?.(latest.session);
        void refreshSessions(queryClient);
      })
      .catch(() => setRemoteTurn(false));
  const latestCatchUp = useRef(catchUp);
  latestCatchUp.current = catchUp;

  useSessionEvents(
    session.id,
    (event) => {
      if (event.type === 'widget') {
        rememberState(event.toolCallId, { data: event.data, version: event.version });
        return;
      }
      // A change of visibility or a deletion ends a reader's stream on the server; nothing to show.
      if (event.type !== 'turn') return;
      if (event.status === 'started') {
        if (running) ownTurn.current = true;
        else setRemoteTurn(true);
        return;
      }
      if (ownTurn.current || running) {
        ownTurn.current = false;
        return;
      }
      void catchUp();
    },
    // Events sent while the connection was down (or before it opened, when a turn was already
    // running) are not replayed: ask for the state instead.
    (again) => {
      if ((again || session.turnActive) && !running) void catchUp();
    },
  );

  useEffect(() => {
    // This tab's own stream broke (or was refused): the turn may go on, or have ended, on the
    // server; what it holds is the truth.
    if (status !== 'error') return;
    ownTurn.current = false;
    void latestCatchUp.current();
  }, [status]);

  return { widgetStates, rememberState, remoteTurn };
}
