import type { MessagePage, QuantaMessage } from '@/lib/protocol';

/**
 * The part of a session's transcript this tab holds: its newest messages, as far back as the
 * reader has scrolled, and whether the server holds older ones.
 */
export type History = { messages: QuantaMessage[]; hasEarlier: boolean };

/**
 * A page of earlier messages, asked for before the message `before`, put in front of what the
 * tab holds. Nothing changes when that message is no longer the tab's first (a catch-up
 * replaced the transcript while the page was on its way).
 */
export function withEarlier(history: History, page: MessagePage, before: string): History {
  if (history.messages[0]?.id !== before) return history;
  return { messages: [...page.messages, ...history.messages], hasEarlier: page.hasEarlier };
}

/**
 * The newest messages as the server holds them now, over what the tab holds. The tab's messages
 * before the first of them stay (nothing before a stored message ever changes: an edit or a
 * regenerate drops what follows it); when the tab holds none of them, they replace it all. A
 * prompt the server refused is only in the tab: it stays, last, for Retry.
 */
export function withNewest(history: History, newest: MessagePage): History {
  const first = newest.messages[0];
  const at = first ? history.messages.findIndex(({ id }) => id === first.id) : -1;
  const kept = at === -1 ? [] : history.messages.slice(0, at);
  const unsent = history.messages.at(-1);
  const refused = unsent?.role === 'user' && !newest.messages.some(({ id }) => id === unsent.id);
  return {
    messages: [...kept, ...newest.messages, ...(refused ? [unsent] : [])],
    hasEarlier: at === -1 ? newest.hasEarlier : history.hasEarlier,
  };
}
