'use client';

import { useChat } from '@ai-sdk/react';
import { useQueryClient } from '@tanstack/react-query';
import { DefaultChatTransport } from 'ai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { QuantaMessage } from '@/lib/protocol';
import { messageText } from '@/lib/protocol';
import { apiError, refreshSessions } from '../api';
import { newMessageId } from './message-id';
import { takePrompt } from './pending-prompt';
import { useStopTurn } from './use-stop-turn';

/** Streamed updates are applied at most this often: enough for a smooth read, cheap to render. */
const THROTTLE_MS = 50;

/**
 * This tab's turns in a session: the transcript as useChat holds it, and sending, editing,
 * writing the last answer again, stopping and retrying. A prompt left by the home page is sent
 * as soon as the chat is there.
 */
export function useSessionChat(sessionId: string, initialMessages: QuantaMessage[]) {
  const queryClient = useQueryClient();
  const transport = useMemo(
    () =>
      new DefaultChatTransport<QuantaMessage>({
        api: `/api/sessions/${sessionId}/messages`,
        // The server holds the history: only the new (or edited) message travels.
        prepareSendMessagesRequest: ({ messages, trigger, messageId }) => ({
          body:
            trigger === 'regenerate-message'
              ? { trigger: 'regenerate' }
              : { trigger: messageId ? 'edit' : 'submit', message: messages.at(-1) },
        }),
        // A refusal (409 while a turn runs, a model that went away) reads as the server's words.
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (!response.ok) throw await apiError(response);
          return response;
        },
      }),
    [sessionId],
  );
  const { messages, setMessages, sendMessage, regenerate, status, stop, error } =
    useChat<QuantaMessage>({
      id: sessionId,
      messages: initialMessages,
      generateId: newMessageId,
      transport,
      experimental_throttle: THROTTLE_MS,
      // A turn may have titled the session and moved it to the top of the list; the list, and
      // the title read from it, are refetched. Nothing else on the page changed.
      onFinish: () => void refreshSessions(queryClient),
    });
  const running = status === 'submitted' || status === 'streaming';
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
    setMessages(messages.slice(0, -1));
    void send(messageText(prompt));
  }

  function stopTurn() {
    setStopRequested(true);
    void stopOnServer();
  }

  return {
    messages,
    setMessages,
    status,
    running,
    error,
    stopRequested,
    send,
    edit,
    regenerate: writeAgain,
    retry,
    stop: stopTurn,
  };
}
