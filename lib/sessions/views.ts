import type { MessageRow } from '../db/schema';
import type { ListedSession } from '../db/sessions';
import type { QuantaMessage, SessionView } from '../protocol';
import { isStale } from './turn-mark';

// Stored rows as a viewer sees them.

export function toView(session: ListedSession, viewer: string | undefined): SessionView {
  return {
    id: session.id,
    title: session.title,
    model: session.model,
    visibility: session.visibility,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    // A mark its turn stopped renewing is from a server that died mid-turn: not running.
    turnActive: session.activeTurnId !== null && !isStale(session),
    isOwner: viewer === session.ownerId,
  };
}

/**
 * A stored message as the AI SDK and the UI know it. A frozen row (the history cache freezes the
 * rows it hands turn after turn) gives the same frozen message each time, so what is made of it
 * can be kept too (see toModelMessages).
 */
export function toMessage(row: MessageRow): QuantaMessage {
  if (!Object.isFrozen(row)) return messageOf(row);
  let message = messages.get(row);
  if (!message) {
    message = Object.freeze(messageOf(row));
    messages.set(row, message);
  }
  return message;
}

const messages = new WeakMap<MessageRow, QuantaMessage>();

function messageOf({ id, role, parts, metadata }: MessageRow): QuantaMessage {
  return metadata === null ? { id, role, parts } : { id, role, parts, metadata };
}
