'use client';

import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';

type ComposerProps = {
  /** A rejection puts the text back (the caller shows why). */
  onSend: (text: string) => Promise<unknown> | undefined;
  /** While a turn runs, the send button becomes Stop; what is typed waits for the next turn. */
  running?: boolean;
  onStop?: () => void;
  /** When set, the composer is disabled and this explains why. */
  disabledReason?: string;
};

export function Composer({ onSend, running = false, onStop, disabledReason }: ComposerProps) {
  const [text, setText] = useState('');
  const reasonId = useId();
  const disabled = disabledReason !== undefined;
  const canSend = !disabled && !running && text.trim().length > 0;

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    const sent = text.trim();
    setText('');
    // A message that could not be sent comes back to the composer: nothing typed is lost.
    try {
      await onSend(sent);
    } catch {
      setText((current) => current || sent);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter (and Enter while an IME composes) inserts a newline.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing)
      void submit(event);
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="mx-auto flex max-w-3xl items-end gap-2"
    >
      <textarea
        aria-label="Message"
        aria-describedby={disabled ? reasonId : undefined}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        disabled={disabled}
        rows={1}
        placeholder={disabled ? disabledReason : 'Message Quanta…'}
        className="field-sizing-content max-h-48 min-h-10 flex-1 resize-none rounded-lg border border-zinc-300 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-blue-500 disabled:cursor-not-allowed disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900"
      />
      {disabled && (
        <span id={reasonId} className="sr-only">
          {disabledReason}
        </span>
      )}
      {running ? (
        <button
          type="button"
          onClick={onStop}
          className={`${sendButton} bg-red-600 dark:bg-red-500`}
        >
          Stop
        </button>
      ) : (
        <button
          type="submit"
          disabled={!canSend}
          className={`${sendButton} bg-zinc-900 dark:bg-zinc-100 dark:text-zinc-900`}
        >
          Send
        </button>
      )}
    </form>
  );
}

const sendButton =
  'h-10 rounded-lg px-4 text-sm font-medium text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-500 disabled:opacity-40';
