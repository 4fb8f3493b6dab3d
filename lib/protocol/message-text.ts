import type { UIMessage } from 'ai';

/** A message's words: its text parts, one per line (tool calls and reasoning left out). */
export function messageText(message: Pick<UIMessage, 'parts'>): string {
  return message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}
