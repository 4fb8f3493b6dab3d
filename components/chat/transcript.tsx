'use client';

import type { ChatStatus } from 'ai';
import { ArrowDown, CircleStop } from 'lucide-react';
import { useEffect } from 'react';
import type { QuantaMessage } from '@/lib/protocol';
import { ActionButton } from './action-button';
import { MessageRow } from './message-row';
import { TurnError } from './turn-error';
import { useFollowNewest } from './use-follow-newest';

type TranscriptProps = {
  messages: QuantaMessage[];
  status: ChatStatus;
  /** This tab's last request failed (the server refused it, or its stream broke). */
  error: Error | undefined;
  /** A reader's view: an empty session says so plainly. */
  readOnly: boolean;
  /** The owner may start a turn now: none runs, here or elsewhere. */
  canAct: boolean;
  stopRequested: boolean;
  /** The viewer owns the session: answers show their token usage. */
  showUsage: boolean;
  /** The callbacks below must be stable: rows are memoised. */
  onOpenWidget: (toolCallId: string) => void;
  onEdit: (messageId: string, text: string) => void;
  onRegenerate: () => void;
  onRetry: () => void;
};

/**
 * The conversation, scrolled to follow its newest line; a button brings a reader who scrolled
 * up back to it. Under the last message: what the turn is doing, or why it failed.
 */
export function Transcript({
  messages,
  status,
  error,
  readOnly,
  canAct,
  stopRequested,
  showUsage,
  onOpenWidget,
  onEdit,
  onRegenerate,
  onRetry,
}: TranscriptProps) {
  const { scrollRef, contentRef, isAtBottom, scrollToBottom } = useFollowNewest();
  const running = status === 'submitted' || status === 'streaming';
  const last = messages.at(-1);
  const failureShown = last?.role === 'assistant' && last.metadata?.status === 'failed';
  const lastPrompt = messages.findLastIndex((message) => message.role === 'user');

  // A new prompt is brought into view, even when the reader had scrolled up.
  const lastPromptId = messages[lastPrompt]?.id;
  useEffect(() => {
    if (lastPromptId) void scrollToBottom('instant');
  }, [lastPromptId, scrollToBottom]);

  return (
    <div className="relative min-h-0 flex-1">
      <div ref={scrollRef} className="absolute inset-0 overflow-y-auto">
        <div ref={contentRef} className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
          {messages.length === 0 ? (
            <p className="py-10 text-center text-muted-foreground">
              {readOnly ? 'No messages yet.' : 'Ask anything. Tools answer in the transcript.'}
            </p>
          ) : (
            <ol aria-label="Transcript" className="flex flex-col gap-6">
              {messages.map((message, index) => (
                <MessageRow
                  key={message.id}
                  message={message}
                  onOpenWidget={onOpenWidget}
                  onEdit={canAct ? onEdit : undefined}
                  // An edit drops what follows; it asks first when that holds later turns.
                  dropsOnEdit={
                    message.role === 'user' && index < lastPrompt ? messages.length - index - 1 : 0
                  }
                  onRegenerate={
                    canAct &&
                    (failureShown || !error) &&
                    message === last &&
                    message.role === 'assistant'
                      ? onRegenerate
                      : undefined
                  }
                  streaming={running && message === last}
                  stopRequested={stopRequested && message === last}
                  showUsage={showUsage}
                />
              ))}
              {stopRequested && last?.role === 'user' ? (
                <li>
                  <p
                    role="status"
                    className="flex items-center gap-1.5 text-sm text-muted-foreground"
                  >
                    <CircleStop aria-hidden className="size-4" />
                    Stopped before answering
                  </p>
                </li>
              ) : (
                status === 'submitted' && (
                  <li
                    aria-live="polite"
                    className="animate-pulse text-sm text-muted-foreground motion-reduce:animate-none"
                  >
                    Thinking…
                  </li>
                )
              )}
            </ol>
          )}
          {error && !failureShown && <TurnError message={error.message} onRetry={onRetry} />}
        </div>
      </div>
      {!isAtBottom && (
        <ActionButton
          label="Jump to latest"
          variant="outline"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full shadow-md"
          onClick={() => void scrollToBottom()}
        >
          <ArrowDown aria-hidden />
        </ActionButton>
      )}
    </div>
  );
}
