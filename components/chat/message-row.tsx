'use client';

import { isToolUIPart } from 'ai';
import { memo } from 'react';
import type { QuantaMessage, ToolOutput } from '@/lib/agent/types';
import { Markdown } from './markdown';
import { ToolCard } from './tool-card';
import { UiEffect } from './ui-effect';
import { formatUsage } from './usage';

type MessageRowProps = {
  message: QuantaMessage;
  /** Opens the widget of the tool call with this id. Must be stable: rows are memoised. */
  onOpenWidget: (toolCallId: string) => void;
};

/**
 * One message of the transcript. Memoised: while a later message streams, the message objects
 * of earlier rows keep their identity and these rows do not render again.
 */
export const MessageRow = memo(function MessageRow({ message, onOpenWidget }: MessageRowProps) {
  if (message.role === 'user') {
    return (
      <li className="max-w-[85%] self-end rounded-2xl bg-zinc-100 px-4 py-2 whitespace-pre-wrap break-words dark:bg-zinc-800">
        <span className="sr-only">You: </span>
        {message.parts.map((part, index) =>
          // biome-ignore lint/suspicious/noArrayIndexKey: a message's parts never reorder.
          part.type === 'text' ? <span key={index}>{part.text}</span> : null,
        )}
      </li>
    );
  }
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
            part.state === 'output-available' ? (part.output as ToolOutput) : undefined;
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
      {metadata?.usage && (
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {metadata.model && <span>{metadata.model} · </span>}
          {formatUsage(metadata.usage)}
        </p>
      )}
    </li>
  );
});
