'use client';

import type { QuantaMessage, SessionView, WidgetState } from '@/lib/protocol';
import { setOpenWidget } from '../widgets/open-widget';
import { WidgetHost } from '../widgets/widget-host';
import { ChatFooter } from './chat-footer';
import { Transcript } from './transcript';
import { totalUsage } from './usage';
import { useLiveSession } from './use-live-session';
import { useSessionChat } from './use-session-chat';

type ChatProps = {
  session: SessionView;
  initialMessages: QuantaMessage[];
  /** The latest state of each widget acted on, by state key. */
  initialWidgetStates: Record<string, WidgetState>;
  /** Set for a reader: the transcript shows, the composer explains why it is disabled. */
  readOnlyReason?: string;
  /** Told the session as the server holds it when the chat loads it again. */
  onSessionView?: (session: SessionView) => void;
};

/** A session's conversation: the transcript, streamed turns, the open widget, the composer. */
export function Chat({
  session,
  initialMessages,
  initialWidgetStates,
  readOnlyReason,
  onSessionView,
}: ChatProps) {
  const chat = useSessionChat(session.id, initialMessages);
  const live = useLiveSession({
    session,
    initialWidgetStates,
    status: chat.status,
    setMessages: chat.setMessages,
    onSessionView,
  });
  const readOnly = readOnlyReason !== undefined;
  const remoteTurnNote = live.remoteTurn
    ? readOnly
      ? 'The owner is running a turn…'
      : 'A turn is running; its answer shows here when it ends…'
    : undefined;
  const canAct = !readOnly && !chat.running && !live.remoteTurn;

  return (
    <>
      <Transcript
        messages={chat.messages}
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
        remoteTurnNote={remoteTurnNote}
        onSend={chat.send}
        running={chat.running}
        onStop={chat.stop}
        disabledReason={readOnlyReason ?? remoteTurnNote}
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
