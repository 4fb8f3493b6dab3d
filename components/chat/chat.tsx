'use client';

import { useChat } from '@ai-sdk/react';
import { useQueryClient } from '@tanstack/react-query';
import { DefaultChatTransport } from 'ai';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStickToBottom } from 'use-stick-to-bottom';
import type { QuantaMessage, SessionDetail, SessionView, WidgetState } from '@/lib/protocol';
import { messageText } from '@/lib/protocol';
import { api, apiError, refreshSessions } from '../api';
import { Composer } from '../composer';
import { secondaryButton } from '../modal';
import { setOpenWidget } from '../widgets/open-widget';
import { WidgetHost } from '../widgets/widget-host';
import { newMessageId } from './message-id';
import { MessageRow } from './message-row';
import { ModelPicker } from './model-picker';
import { takePrompt } from './pending-prompt';
import { formatUsage, totalUsage } from './usage';
import { useSessionEvents } from './use-session-events';
import { useStopTurn } from './use-stop-turn';

/** Streamed updates are applied at most this often: enough for a smooth read, cheap to render. */
const THROTTLE_MS = 50;

type ChatProps = {
  session: SessionView;
  initialMessages: QuantaMessage[];
  /** The latest state of each widget acted on, by state key. */
  initialWidgetStates: Record<string, WidgetState>;
  /** Set for a reader: the transcript shows, the composer explains why it is disabled. */
  readOnlyReason?: string;
};

/** A session's conversation: the transcript, streamed turns, and the composer. */
export function Chat({ session, initialMessages, initialWidgetStates, readOnlyReason }: ChatProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const transport = useMemo(
    () =>
      new DefaultChatTransport<QuantaMessage>({
        api: `/api/sessions/${session.id}/messages`,
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
    [session.id],
  );
  const { messages, setMessages, sendMessage, regenerate, status, stop, error } =
    useChat<QuantaMessage>({
      id: session.id,
      messages: initialMessages,
      generateId: newMessageId,
      transport,
      experimental_throttle: THROTTLE_MS,
      onFinish: () => {
        // A turn may have titled the session and moved it to the top of the list.
        void refreshSessions(queryClient);
        router.refresh();
      },
    });
  const running = status === 'submitted' || status === 'streaming';
  const [widgetStates, setWidgetStates] = useState(initialWidgetStates);
  // A newer version wins, whether it came from this tab's action or another viewer's.
  const rememberState = useCallback((key: string, state: WidgetState) => {
    setWidgetStates((states) => {
      const known = states[key];
      return known && known.version >= state.version ? states : { ...states, [key]: state };
    });
  }, []);
  // A turn run elsewhere (the owner's other tab; for a reader, the owner): announced while it
  // runs, and its transcript loaded when it ends. This tab's own turn comes by its own stream.
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
        void refreshSessions(queryClient);
        router.refresh();
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
  const remoteTurnNote = remoteTurn
    ? readOnlyReason === undefined
      ? 'A turn is running; its answer shows here when it ends…'
      : 'The owner is running a turn…'
    : undefined;
  const { scrollRef, contentRef, isAtBottom, scrollToBottom } = useStickToBottom({
    initial: 'instant',
    resize: 'smooth',
  });

  useEffect(() => {
    const first = takePrompt(session.id);
    if (first) void sendMessage({ text: first });
  }, [session.id, sendMessage]);

  const canAct = readOnlyReason === undefined && !running && !remoteTurn;
  const edit = useCallback(
    (messageId: string, text: string) => void sendMessage({ text, messageId }),
    [sendMessage],
  );
  const writeAgain = useCallback(() => void regenerate(), [regenerate]);

  /**
   * After an error: a prompt the server refused (a turn running, a model gone) is sent again;
   * an answer that broke off is written again.
   */
  function retry() {
    const prompt = messages.at(-1);
    if (prompt?.role !== 'user') {
      void regenerate();
      return;
    }
    const text = messageText(prompt);
    setMessages(messages.slice(0, -1));
    void sendMessage({ text });
  }

  const stopTurn = useStopTurn(session.id, status, stop);
  useEffect(() => {
    // This tab's own stream broke (or was refused): the turn may go on, or have ended, on the
    // server; what it holds is the truth.
    if (status !== 'error') return;
    ownTurn.current = false;
    void latestCatchUp.current();
  }, [status]);

  const last = messages.at(-1);
  const failureShown = last?.role === 'assistant' && last.metadata?.status === 'failed';
  const usage = totalUsage(messages.map((message) => message.metadata?.usage));

  return (
    <>
      <div ref={scrollRef} className="relative min-h-0 flex-1 overflow-y-auto">
        <div ref={contentRef}>
          {messages.length === 0 ? (
            <p className="mx-auto max-w-3xl px-4 py-10 text-zinc-500 dark:text-zinc-400">
              {readOnlyReason
                ? 'No messages yet.'
                : 'Ask anything. Tools answer in the transcript.'}
            </p>
          ) : (
            <ol aria-label="Transcript" className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6">
              {messages.map((message) => (
                <MessageRow
                  key={message.id}
                  message={message}
                  onOpenWidget={setOpenWidget}
                  onEdit={canAct ? edit : undefined}
                  onRegenerate={
                    canAct &&
                    (failureShown || !error) &&
                    message === last &&
                    message.role === 'assistant'
                      ? writeAgain
                      : undefined
                  }
                />
              ))}
              {status === 'submitted' && (
                <li aria-live="polite" className="animate-pulse text-sm text-zinc-500">
                  Thinking…
                </li>
              )}
            </ol>
          )}
          {error && !failureShown && (
            <div className="mx-auto flex max-w-3xl flex-wrap items-center gap-3 px-4 pb-4">
              <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                {error.message}
              </p>
              <button type="button" className={secondaryButton} onClick={retry}>
                Retry
              </button>
            </div>
          )}
        </div>
      </div>
      {!isAtBottom && (
        <div className="relative">
          <button
            type="button"
            onClick={() => void scrollToBottom()}
            className="absolute -top-12 left-1/2 -translate-x-1/2 rounded-full border border-zinc-300 bg-white px-3 py-1 text-sm shadow focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700 dark:bg-zinc-900"
          >
            Jump to latest
          </button>
        </div>
      )}
      <WidgetHost
        sessionId={session.id}
        messages={messages}
        states={widgetStates}
        onState={rememberState}
        onSendMessage={(text) => {
          if (canAct) void sendMessage({ text });
        }}
        readOnly={readOnlyReason !== undefined}
      />
      <div className="shrink-0 border-t border-zinc-200 p-3 dark:border-zinc-800">
        {remoteTurnNote && (
          <p
            role="status"
            className="mx-auto mb-2 max-w-3xl animate-pulse text-sm text-zinc-500 dark:text-zinc-400"
          >
            {remoteTurnNote}
          </p>
        )}
        <Composer
          onSend={(text) => sendMessage({ text })}
          running={running}
          onStop={() => void stopTurn()}
          disabledReason={readOnlyReason ?? remoteTurnNote}
        />
        <div className="mx-auto mt-2 flex max-w-3xl flex-wrap items-center justify-between gap-2">
          <ModelPicker session={session} />
          {usage && (
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              Session: {formatUsage(usage)}
            </p>
          )}
        </div>
      </div>
    </>
  );
}
