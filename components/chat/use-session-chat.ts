'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { MessagePage, QuantaMessage } from '@/lib/protocol';
import { messageText } from '@/lib/protocol';
import { refreshSessions } from '../api';
import { ChatStore } from './chat-store';
import { withEarlier, withNewest } from './history';
import { newMessageId } from './message-id';
import { takePrompt } from './pending-prompt';
import { sessionTransport } from './session-transport';
import { useStopTurn } from './use-stop-turn';

/** Streamed updates are applied at most this often: enough for a smooth read, cheap to render. */
const THROTTLE_MS = 50;

/**
 * The turns of a session as this tab reads them: the transcript as its ChatStore holds it (the
 * newest messages, and earlier pages as the reader asks for them), and sending, editing,
 * writing the last answer again, stopping and retrying, and reading a turn that runs on the
 * server (sent by another tab, or before a reload). A prompt left by the home page is sent as
 * soon as the chat is there.
 */
export function useSessionChat(
  sessionId: string,
  initialMessages: QuantaMessage[],
  initialHasEarlier: boolean,
) {
  const queryClient = useQueryClient();
  // One store per mount: the page keys the chat by session.
  const [chat] = useState(
    () =>
      new ChatStore({
        messages: initialMessages,
        generateId: newMessageId,
        transport: sessionTransport(sessionId),
        throttleMs: THROTTLE_MS,
        // A turn may have titled the session and moved it to the top of the list; the list,
        // and the title read from it, are refetched. Nothing else on the page changed.
        onFinish: () => void refreshSessions(queryClient),
      }),
  );
  const { messages, status, error } = useSyncExternalStore(
    chat.subscribe,
    chat.getSnapshot,
    chat.getSnapshot,
  );
  const { sendMessage, regenerate, stop, clearError } = chat;
  const running = isReading({ status });
  // Whether the server holds messages before the first one here. The ref answers between
  // renders, like chat.messages.
  const [hasEarlier, setHasEarlier] = useState(initialHasEarlier);
  const hasEarlierNow = useRef(initialHasEarlier);
  const setHistory = useCallback(
    (history: { messages: QuantaMessage[]; hasEarlier: boolean }) => {
      chat.messages = history.messages;
      hasEarlierNow.current = history.hasEarlier;
      setHasEarlier(history.hasEarlier);
    },
    [chat],
  );
  /** A page of messages before `before`, asked for by the reader. */
  const addEarlier = useCallback(
    (page: MessagePage, before: string) =>
      setHistory(
        withEarlier({ messages: chat.messages, hasEarlier: hasEarlierNow.current }, page, before),
      ),
    [chat, setHistory],
  );
  /** The newest messages as the server holds them now (a catch-up). */
  const takeNewest = useCallback(
    (page: MessagePage) =>
      setHistory(withNewest({ messages: chat.messages, hasEarlier: hasEarlierNow.current }, page)),
    [chat, setHistory],
  );
  // Stop is shown at once, before the server's word on how the turn ended comes back.
  const [stopRequested, setStopRequested] = useState(false);
  const stopOnServer = useStopTurn(sessionId, status, stop);

  const send = useCallback(
    (text: string) => {
      setStopRequested(false);
      return sendMessage({ text });
    },
    [sendMessage],
  );
  const edit = useCallback(
    (messageId: string, text: string) => {
      setStopRequested(false);
      void sendMessage({ text, messageId });
    },
    [sendMessage],
  );
  const writeAgain = useCallback(() => {
    setStopRequested(false);
    void regenerate();
  }, [regenerate]);
  /**
   * Reads the turn the server runs now, from its first word (nothing when none runs); done when
   * it ends. Not while this tab reads one already: two readers would write the same answer.
   */
  const resume = useCallback(async () => {
    if (isReading(chat)) return;
    setStopRequested(false);
    await chat.resumeStream();
  }, [chat]);

  useEffect(() => {
    const first = takePrompt(sessionId);
    if (first) void sendMessage({ text: first });
  }, [sessionId, sendMessage]);

  /**
   * After an error: a prompt the server refused (a turn running, a model gone) is sent again;
   * an answer that broke off is written again.
   */
  function retry() {
    const prompt = messages.at(-1);
    if (prompt?.role !== 'user') {
      writeAgain();
      return;
    }
    chat.messages = messages.slice(0, -1);
    void send(messageText(prompt));
  }

  function stopTurn() {
    setStopRequested(true);
    void stopOnServer();
  }

  return {
    messages,
    hasEarlier,
    addEarlier,
    takeNewest,
    status,
    running,
    error,
    stopRequested,
    send,
    edit,
    regenerate: writeAgain,
    retry,
    stop: stopTurn,
    resume,
    clearError,
    /** The chat as it is now, for a decision taken after an await, before any render. */
    chat,
  };
}

export type SessionChat = ReturnType<typeof useSessionChat>;

/** Whether the chat reads a turn's stream now (or waits for its first chunk). */
export function isReading(chat: { status: string }): boolean {
  return chat.status === 'submitted' || chat.status === 'streaming';
}
