'use client';

import type { QuantaMessage, SessionView, WidgetState } from '@/lib/protocol';
import { setOpenWidget } from '../widgets/open-widget';
import { WidgetHost } from '../widgets/widget-host';
import { ChatFooter } from './chat-footer';
import { Transcript } from './transcript';
import { totalUsage } from './usage';
import { useEarlierMessages } from './use-earlier-messages';
import { useLiveSession } from './use-live-session';
import { useSessionChat } from './use-session-chat';

type ChatProps = {
  session: SessionView;
  /** The session's newest messages, as the page was loaded. */
  initialMessages: QuantaMessage[];
  /** The server holds messages before those. */
  initialHasEarlier: boolean;
  /** The latest state of each widget acted on, by state key. */
  initialWidgetStates: Record<string, WidgetState>;
  /** Set for a reader: the transcript shows, the composer explains why it is disabled. */
  readOnlyReason?: string;
  /** Told the session as the server holds it when the chat loads it again. */
  onSessionView?: (session: SessionView) => void;
};

const RUNNING_TURN = 'A turn is running: wait for its answer, or stop it.';

/** A session's conversation: the transcript, streamed turns, the open widget, the composer. */
export function Chat({
  session,
  initialMessages,
  initialHasEarlier,
  initialWidgetStates,
  readOnlyReason,
  onSessionView,
}: ChatProps) {
  const chat = useSessionChat(session.id, initialMessages, initialHasEarlier);
  const live = useLiveSession({ session, initialWidgetStates, chat, onSessionView });
  const earlier = useEarlierMessages({
    sessionId: session.id,
    chat,
    rememberState: live.rememberState,
  });
  const readOnly = readOnlyReason !== undefined;
  // A turn this tab did not send: nothing can be sent until it ends. The owner may stop it.
  const turnNote = live.following && !readOnly ? RUNNING_TURN : undefined;
  const canAct = !readOnly && !chat.running && !live.following;

  return (
    <>
      <Transcript
        messages={chat.messages}
        hasEarlier={chat.hasEarlier}
        earlier={earlier.state}
        onLoadEarlier={earlier.loadEarlier}
        status={chat.status}
        error={chat.error}
        readOnly={readOnly}
        canAct={canAct}
        stopRequested={chat.stopRequested}
        showUsage={session.isOwner}
        onOpenWidget={setOpenWidget}
        onEdit={chat.edit}
        onRegenerate={chat.regenerate}
        onRetry={chat.retry}
      />
      <WidgetHost
        sessionId={session.id}
        messages={chat.messages}
        states={live.widgetStates}
        onState={live.rememberState}
        onSendMessage={(text) => {
          if (canAct) void chat.send(text);
        }}
        readOnly={readOnly}
      />
      <ChatFooter
        session={session}
        turnNote={turnNote}
        onSend={chat.send}
        running={chat.running || live.following}
        // A reader sees the answer come, with no Stop.
        onStop={readOnly ? undefined : chat.stop}
        disabledReason={readOnlyReason ?? turnNote}
        // A new conversation (its first message just sent from home, or none yet): typing
        // goes on here.
        autoFocus={!readOnly && initialMessages.length === 0}
        usage={
          session.isOwner
            ? totalUsage(chat.messages.map((message) => message.metadata?.usage))
            : undefined
        }
      />
    </>
  );
}
