// A running turn stores its answer only at its steps' ends and its end (see
// lib/turns/turn-recorder): a read of its session's newest messages, or a fork, places what it
// has written since among what is stored, by one rule.

/** What the rule reads of a message: a `QuantaMessage` or a stored row. */
type Placed = { id: string; role: string; metadata?: { status?: string } | null };

/**
 * `messages` (the newest stored, oldest first) with `answer`, a running turn's answer so far, in
 * place of what a step stored of it (status `streaming`), or after the prompt it answers. The
 * final message, stored before the turn's last chunks reach its feed and log, is the truth, and
 * is left as it is; so is a page read after the turn's end and a new prompt.
 */
export function withAnswer<T extends Placed>(messages: T[], answer: T | undefined): T[] {
  if (!answer) return messages;
  const stored = messages.findLastIndex((message) => message.id === answer.id);
  if (stored !== -1) {
    const isStepSave = (messages[stored] as T).metadata?.status === 'streaming';
    return isStepSave ? messages.with(stored, answer) : messages;
  }
  return messages.at(-1)?.role === 'user' ? [...messages, answer] : messages;
}
