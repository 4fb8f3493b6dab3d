'use client';

import { isStaticToolUIPart, isToolUIPart } from 'ai';
import { type FormEvent, type KeyboardEvent, memo, useState } from 'react';
import type { QuantaMessage } from '@/lib/protocol';
import { messageText } from '@/lib/protocol';
import { Markdown } from './markdown';
import { ToolCard } from './tool-card';
import { UiEffect } from './ui-effect';
import { formatUsage } from './usage';

type MessageRowProps = {
  message: QuantaMessage;
  /** Opens the widget of the tool call with this id. Must be stable: rows are memoised. */
  onOpenWidget: (toolCallId: string) => void;
  /** Given when this user message may be edited now (stable). */
  onEdit?: (messageId: string, text: string) => void;
  /** Given on the last answer when it may be written again (stable). */
  onRegenerate?: () => void;
};

/**
 * One message of the transcript. Memoised: while a later message streams, the message objects
 * of earlier rows keep their identity and these rows do not render again.
 */
export const MessageRow = memo(function MessageRow(props: MessageRowProps) {
  return props.message.role === 'user' ? (
    <UserMessage {...props} />
  ) : (
    <AssistantMessage {...props} />
  );
});

const smallButton =
  'rounded px-1.5 py-0.5 text-xs text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-500 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100';

function UserMessage({ message, onEdit }: MessageRowProps) {
  const text = messageText(message);
  const [draft, setDraft] = useState<string | null>(null);

  if (draft !== null && onEdit) {
    const save = (event?: FormEvent) => {
      event?.preventDefault();
      if (draft.trim() === '') return;
      setDraft(null);
      onEdit(message.id, draft.trim());
    };
    const keys = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDraft(null);
      if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) save(event);
    };
    return (
      <li className="w-full max-w-[85%] self-end">
        <form onSubmit={save} className="flex flex-col gap-2">
          <textarea
            aria-label="Edit message"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={keys}
            // biome-ignore lint/a11y/noAutofocus: the edit was asked for; typing goes here.
            autoFocus
            className="field-sizing-content min-h-10 resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-blue-500 dark:border-zinc-700 dark:bg-zinc-900"
          />
          <div className="flex justify-end gap-2">
            <button type="button" className={smallButton} onClick={() => setDraft(null)}>
              Cancel
            </button>
            <button type="submit" className={smallButton} disabled={draft.trim() === ''}>
              Send edit
            </button>
          </div>
        </form>
      </li>
    );
  }
  return (
    <li className="group flex max-w-[85%] flex-col items-end gap-1 self-end">
      <div className="rounded-2xl bg-zinc-100 px-4 py-2 whitespace-pre-wrap break-words dark:bg-zinc-800">
        <span className="sr-only">You: </span>
        {text}
      </div>
      {onEdit && (
        <button
          type="button"
          className={`${smallButton} md:opacity-0 md:group-hover:opacity-100 md:focus-visible:opacity-100`}
          onClick={() => setDraft(text)}
        >
          Edit
        </button>
      )}
    </li>
  );
}

function AssistantMessage({ message, onOpenWidget, onRegenerate }: MessageRowProps) {
  const { metadata } = message;
  return (
    <li className="flex min-w-0 flex-col gap-2">
      <span className="sr-only">Assistant:</span>
      {message.parts.map((part, index) => {
        const key = index;
        if (part.type === 'text') {
          return <Markdown key={key} text={part.text} streaming={part.state === 'streaming'} />;
        }
        if (part.type === 'reasoning') {
          return (
            <details key={key} className="text-sm text-zinc-600 dark:text-zinc-400">
              <summary className="cursor-pointer rounded focus-visible:outline-2 focus-visible:outline-blue-500">
                Reasoning
              </summary>
              <div className="mt-1 border-l-2 border-zinc-200 pl-3 whitespace-pre-wrap dark:border-zinc-700">
                {part.text}
              </div>
            </details>
          );
        }
        if (isToolUIPart(part)) {
          const output =
            isStaticToolUIPart(part) && part.state === 'output-available' ? part.output : undefined;
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
      {metadata?.status === 'stopped' && (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Stopped.</p>
      )}
      {metadata?.status === 'failed' && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {metadata.error ?? 'The turn failed.'}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        {metadata?.usage && (
          <span>
            {metadata.model && `${metadata.model} · `}
            {formatUsage(metadata.usage)}
          </span>
        )}
        {onRegenerate && (
          <button type="button" className={smallButton} onClick={onRegenerate}>
            {metadata?.status === 'failed' ? 'Retry' : 'Regenerate'}
          </button>
        )}
      </div>
    </li>
  );
}
