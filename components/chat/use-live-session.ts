'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MESSAGE_PAGE,
  type SessionDetail,
  type SessionView,
  type WidgetState,
} from '@/lib/protocol';
import { api, refreshSessions } from '../api';
import { turnEnded } from './turn-ended';
import { isReading, type SessionChat } from './use-session-chat';
import { useSessionEvents } from './use-session-events';

type LiveSessionOptions = {
  session: SessionView;
  /** The latest state of each widget acted on, by state key, as the page was loaded. */
  initialWidgetStates: Record<string, WidgetState>;
  /** This tab's chat: events about the turn it reads are not news; other turns stream into it. */
  chat: Pick<SessionChat, 'status' | 'takeNewest' | 'resume' | 'clearError' | 'chat'>;
  /** Told the session as the server holds it after each catch-up (its title may have changed). */
  onSessionView?: (session: SessionView) => void;
};

/**
 * What happens to a session outside this tab's own requests: widget states changed by anyone,
 * and turns this tab did not send (the owner's other tab or another device; for a reader, the
 * owner), streamed in word by word from the server ("following" them). Events are not
 * replayed, so after a reconnection, or a stream that broke, the newest messages are loaded
 * again ("catch-up").
 */
export function useLiveSession({
  session,
  initialWidgetStates,
  chat,
  onSessionView,
}: LiveSessionOptions) {
  const queryClient = useQueryClient();
  const [widgetStates, setWidgetStates] = useState(initialWidgetStates);
  // A newer version wins, whether it came from this tab's action or another viewer's.
  const rememberState = useCallback((key: string, state: WidgetState) => {
    setWidgetStates((states) => {
      const known = states[key];
      return known && known.version >= state.version ? states : { ...states, [key]: state };
    });
  }, []);
  // Following a turn this tab did not send: the composer waits for it. The ref answers at once,
  // between renders.
  const [following, setFollowing] = useState(false);
  const followingNow = useRef(false);
  // The turn the events speak of is read here (sent or followed): its end is not news.
  const readHere = useRef(false);
  // A catch-up landed while this tab read its own turn (see catchUp).
  const caughtUpLate = useRef(false);
  const reading = () => isReading(chat.chat);

  /**
   * Loads what the server holds now, after a turn run elsewhere or a lost connection: the
   * session and its newest messages, never the whole transcript again.
   */
  const catchUp = (): Promise<SessionDetail | undefined> =>
    api<SessionDetail>(`/api/sessions/${session.id}?limit=${MESSAGE_PAGE}`)
      .then((latest) => {
        // Asked before this tab sent a prompt, it holds neither the prompt nor the answer this
        // tab now reads: not merged now, asked again once that turn has ended.
        if (reading()) caughtUpLate.current = true;
        else chat.takeNewest(latest);
        for (const [key, state] of Object.entries(latest.widgetStates)) rememberState(key, state);
        onSessionView?.(latest.session);
        void refreshSessions(queryClient);
        return latest;
      })
      .catch(() => undefined);

  /**
   * Streams in the turn the server runs. `catchUpFirst` when the page may lack its prompt (or
   * hold answers an edit dropped): the turn was started elsewhere after the page loaded.
   */
  const follow = async (catchUpFirst: boolean) => {
    if (followingNow.current || reading()) return;
    followingNow.current = true;
    setFollowing(true);
    try {
      if (catchUpFirst && !(await catchUp())?.session.turnActive) return;
      // A prompt this tab sent meanwhile: its own stream reads the turn.
      if (reading()) return;
      await chat.resume();
      if (reading()) return;
      // No turn ran any more (204: it ended before it was asked for), or the stream broke or
      // ended without the turn's final word: the stored answer is the truth, not an error box.
      if (chat.chat.status === 'error') chat.clearError();
      if (!turnEnded(chat.chat.lastMessage?.metadata)) await catchUp();
    } finally {
      followingNow.current = false;
      setFollowing(false);
    }
  };
  const latest = useRef({ follow, catchUp });
  latest.current = { follow, catchUp };

  // A page loaded while a turn runs holds the answer so far: the stream replays it over that,
  // then goes on live. Only then, not on every load (a 204 is cheap, but it is a request per
  // page view for nothing): a turn that starts later is announced by the events, and one that
  // started between the page's render and the events' connection shows when it ends (its
  // 'ended' event catches up).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the page as loaded
  useEffect(() => {
    if (session.turnActive) void latest.current.follow(false);
  }, []);

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
        const here = reading() || followingNow.current;
        readHere.current = true;
        if (!here) void follow(true);
        return;
      }
      if (readHere.current || reading()) {
        readHere.current = false;
        return;
      }
      void catchUp();
    },
    // Events sent while the connection was down are not replayed: a turn may have started.
    // (A turn running before the first connection was found from the page, above.)
    (again) => {
      if (again) void follow(true);
    },
  );

  useEffect(() => {
    if (chat.status === 'ready' && caughtUpLate.current) {
      caughtUpLate.current = false;
      void latest.current.catchUp();
    }
    // This tab's own stream broke (or was refused): the turn may go on, or have ended, on the
    // server; what it holds is the truth. A followed turn's stream is seen to by follow().
    if (chat.status !== 'error' || followingNow.current) return;
    caughtUpLate.current = false;
    readHere.current = false;
    void latest.current.catchUp();
  }, [chat.status]);

  return { widgetStates, rememberState, following };
}
