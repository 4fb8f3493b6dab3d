'use client';

import { CircleAlert, CircleStop, Pencil, RefreshCw } from 'lucide-react';
import { memo, useRef, useState } from 'react';
import { isStaticToolPart, isToolPart, messageText, type QuantaMessage } from '@/lib/protocol';
import { ActionButton } from './action-button';
import { EditMessageForm } from './edit-message';
import { Markdown } from './markdown';
import { CopyAction, MessageActions, UsageInfo } from './message-actions';
import { SummaryNote } from './summary-note';
import { ToolCard } from './tool-card';
import { turnEnded } from './turn-ended';
import { TurnError } from './turn-error';
import { UiEffect } from './ui-effect';

type MessageRowProps = {
  message: QuantaMessage;
  /** Opens the widget of the tool call with this id. Must be stable: rows are memoised. */
  onOpenWidget: (toolCallId: string) => void;
  /** Given when this user message may be edited now (stable). */
  onEdit?: (messageId: string, text: string) => void;
  /** How many messages an edit of this one removes when later turns follow it; else 0. */
  dropsOnEdit?: number;
  /** Given on the last answer when it may be written again (stable). */
  onRegenerate?: () => void;
  /** The answer is still being written: its actions wait for its end. */
  streaming?: boolean;
  /** Stop was pressed while this answer was written: it says so before the server confirms. */
  stopRequested?: boolean;
  /** The viewer owns the session: answers show their token usage. */
  showUsage?: boolean;
};

/**
 * One message of the transcript (the transcript puts it in a list item). Memoised: while a later message streams, the message objects
 * of earlier rows keep their identity and these rows do not render again.
 */
export const MessageRow = memo(function MessageRow(props: MessageRowProps) {
  return props.message.role === 'user' ? (
    <UserMessage {...props} />
  ) : (
    <AssistantMessage {...props} />
  );
});

function UserMessage({ message, onEdit, dropsOnEdit = 0 }: MessageRowProps) {
  const text = messageText(message);
  const [editing, setEditing] = useState(false);
  // Leaving the editor puts the focus back on the Edit button it came from.
  const refocusEdit = useRef(false);

  if (editing && onEdit) {
    const close = () => {
      refocusEdit.current = true;
      setEditing(false);
    };
    return (
      <div className="w-full max-w-[85%] self-end">
        <EditMessageForm
          text={text}
          dropsOnEdit={dropsOnEdit}
          onCancel={close}
          onSave={(draft) => {
            setEditing(false);
            onEdit(message.id, draft);
          }}
        />
      </div>
    );
  }
  return (
    <div className="group/message flex max-w-[85%] flex-col items-end gap-1 self-end">
      <div className="rounded-2xl bg-muted px-4 py-2 break-words whitespace-pre-wrap">
        <span className="sr-only">You: </span>
        {text}
      </div>
      {onEdit && (
        <MessageActions>
          <ActionButton
            label="Edit"
            onClick={() => setEditing(true)}
            ref={(button) => {
              if (button && refocusEdit.current) {
                refocusEdit.current = false;
                button.focus();
              }
            }}
          >
            <Pencil aria-hidden />
          </ActionButton>
        </MessageActions>
      )}
    </div>
  );
}

function AssistantMessage({
  message,
  onOpenWidget,
  onRegenerate,
  streaming = false,
  stopRequested = false,
  showUsage = false,
}: MessageRowProps) {
  const { metadata } = message;
  const markdown = answerMarkdown(message);
  const failed = metadata?.status === 'failed';
  const stopped = metadata?.status === 'stopped' || (stopRequested && !turnEnded(metadata));
  const interrupted = metadata?.status === 'interrupted';
  // A failed answer is written again by its alert's Retry.
  const regenerate = failed ? undefined : onRegenerate;
  const usage = showUsage ? metadata?.usage : undefined;
  return (
    <div className="group/message flex min-w-0 flex-col gap-2">
      <span className="sr-only">Assistant:</span>
      {message.parts.map((part, index) => {
        const key = index;
        if (part.type === 'text') {
          return (
            <Markdown
              key={key}
              text={part.text}
              streaming={streaming && part.state === 'streaming'}
            />
          );
        }
        if (part.type === 'data-summary') {
          const writing = part.data.status === 'summarising';
          // A summary the turn's end cut short is not kept (settledParts).
          return writing && !streaming ? null : <SummaryNote key={key} writing={writing} />;
        }
        if (part.type === 'reasoning') {
          return (
            <details key={key} className="text-sm text-muted-foreground">
              <summary className="w-fit cursor-pointer rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
                Reasoning
              </summary>
              <div className="mt-1 border-l-2 pl-3 whitespace-pre-wrap">{part.text}</div>
            </details>
          );
        }
        if (isToolPart(part)) {
          const output =
            isStaticToolPart(part) && part.state === 'output-available' ? part.output : undefined;
          const ui = output && !output.isError ? output.ui : undefined;
          return (
            <div key={key} className="flex flex-col gap-2">
              <ToolCard part={part} />
              {ui && <UiEffect ui={ui} onOpenWidget={() => onOpenWidget(part.toolCallId)} />}
            </div>
          );
        }
        return null;
      })}
      {stopped && (
        <p role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <CircleStop aria-hidden className="size-4" />
          {markdown === '' ? 'Stopped before answering' : 'Stopped'}
        </p>
      )}
      {interrupted && (
        <p role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <CircleAlert aria-hidden className="size-4" />
          {markdown === ''
            ? 'Interrupted before answering'
            : 'Interrupted: the server stopped before the answer was finished'}
        </p>
      )}
      {failed && (
        <TurnError message={metadata.error ?? 'The turn failed.'} onRetry={onRegenerate} />
      )}
      {!streaming && (markdown !== '' || regenerate || usage) && (
        <MessageActions className="-ml-2">
          {markdown !== '' && <CopyAction text={markdown} />}
          {regenerate && (
            <ActionButton label="Regenerate" onClick={regenerate}>
              <RefreshCw aria-hidden />
            </ActionButton>
          )}
          {usage && <UsageInfo usage={usage} />}
        </MessageActions>
      )}
    </div>
  );
}

/** An answer's markdown as written: its text parts, a blank line between them. */
function answerMarkdown(message: QuantaMessage): string {
  return message.parts
    .flatMap((part) => (part.type === 'text' && part.text.trim() !== '' ? [part.text] : []))
    .join('\n\n');
}
