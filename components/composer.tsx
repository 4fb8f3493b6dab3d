'use client';

import { ArrowUp, Square } from 'lucide-react';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { ActionButton } from './chat/action-button';

type ComposerProps = {
  /** A rejection puts the text back (the caller shows why). */
  onSend: (text: string) => Promise<unknown> | undefined;
  /** While a turn runs, Send becomes Stop; what is typed waits for the next turn. */
  running?: boolean;
  /** Without it (a reader), a running turn has no Stop: Send stays, disabled. */
  onStop?: () => void;
  /** When set, the composer is disabled and this explains why (in its placeholder). */
  disabledReason?: string;
  /** The reason is shown above the box already (a running turn): the field keeps its invitation. */
  reasonShownAbove?: boolean;
  /** Put the focus in the field when it appears: where a new conversation starts. */
  autoFocus?: boolean;
  /** Shown at the bottom left of the box, beside Send: the model picker. */
  tools?: ReactNode;
};

/**
 * Where a message is written: a field that grows with its text (up to 40% of the screen, then
 * scrolls), Enter sends, Shift+Enter is a new line. After Send or Stop the focus stays in the
 * field, ready for the next message.
 */
export function Composer({
  onSend,
  running = false,
  onStop,
  disabledReason,
  reasonShownAbove = false,
  autoFocus = false,
  tools,
}: ComposerProps) {
  const [text, setText] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  const reasonId = useId();
  const disabled = disabledReason !== undefined;
  const canSend = !disabled && !running && text.trim().length > 0;

  useEffect(() => {
    if (autoFocus) field.current?.focus();
  }, [autoFocus]);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!canSend) return;
    const sent = text.trim();
    setText('');
    field.current?.focus();
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
    <form onSubmit={(event) => void submit(event)} className="mx-auto w-full max-w-3xl">
      <div className="flex flex-col rounded-2xl border border-input bg-background shadow-sm has-[textarea:focus-visible]:outline-2 has-[textarea:focus-visible]:outline-offset-2 has-[textarea:focus-visible]:outline-ring">
        <textarea
          ref={field}
          aria-label="Message"
          aria-describedby={disabled ? reasonId : undefined}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          rows={1}
          placeholder={disabled && !reasonShownAbove ? disabledReason : 'Message Quanta…'}
          className="field-sizing-content max-h-[40dvh] min-h-12 w-full resize-none overflow-y-auto bg-transparent px-4 pt-3 pb-1 text-base outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-60"
        />
        {disabled && (
          <span id={reasonId} className="sr-only">
            {disabledReason}
          </span>
        )}
        <div className="flex items-center gap-2 px-2 pb-2">
          <div className="flex min-w-0 flex-1 flex-wrap items-center gap-1">{tools}</div>
          {running && onStop ? (
            <ActionButton
              label="Stop"
              variant="default"
              className="rounded-full"
              onClick={() => {
                onStop();
                field.current?.focus();
              }}
            >
              <Square aria-hidden className="size-3 fill-current" />
            </ActionButton>
          ) : (
            <ActionButton
              label="Send"
              type="submit"
              variant="default"
              className="rounded-full"
              disabled={!canSend}
            >
              <ArrowUp aria-hidden />
            </ActionButton>
          )}
        </div>
      </div>
    </form>
  );
}
