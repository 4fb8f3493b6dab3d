import type { MessageView } from '@/lib/sessions/types';

/** The stored messages, text parts only (tool parts and widgets render with the chat UI). */
export function Transcript({ messages }: { messages: MessageView[] }) {
  if (messages.length === 0) {
    return (
      <p className="mx-auto max-w-3xl px-4 py-10 text-zinc-500 dark:text-zinc-400">
        No messages yet.
      </p>
    );
  }
  return (
    <ol aria-label="Transcript" className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-6">
      {messages.map((message) => (
        <li
          key={message.id}
          className={
            message.role === 'user'
              ? 'self-end rounded-2xl bg-zinc-100 px-4 py-2 whitespace-pre-wrap dark:bg-zinc-800'
              : 'whitespace-pre-wrap'
          }
        >
          <span className="sr-only">{message.role === 'user' ? 'You:' : 'Assistant:'}</span>
          {message.parts.map((part, index) =>
            // biome-ignore lint/suspicious/noArrayIndexKey: a stored message's parts never reorder.
            isText(part) ? <span key={`${message.id}-${index}`}>{part.text}</span> : null,
          )}
        </li>
      ))}
    </ol>
  );
}

function isText(part: unknown): part is { type: 'text'; text: string } {
  return typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text';
}
