import 'server-only';
import { buildMessage, storedForm } from '../agent/turn-message';
import { maxToolInputBytes } from '../config';
import type { Db } from '../db/client';
import { isStepSave } from '../db/messages';
import type { SessionRow } from '../db/schema';
import { readChunks } from '../db/turn-log';
import type { QuantaMessage } from '../protocol';
import { runningTurn } from '../turns/running-turns';

// A running turn stores its answer only when a step that called tools ends, and at its end (see
// lib/turns/turn-recorder): what it wrote since is in its feed here and in its log. A page read
// mid-turn shows that at once, as a save would have, before its stream replays it.

/**
 * The session's running turn's answer so far, in its stored form: from the feed when the turn
 * runs here, else from its log; undefined when no turn runs, it has written nothing, or it has
 * ended (its final message, stored before its last chunk, is the truth: settled, capped).
 */
export async function answerSoFar(
  db: Db,
  session: Pick<SessionRow, 'id' | 'activeTurnId'>,
): Promise<QuantaMessage | undefined> {
  const turnId = session.activeTurnId;
  if (turnId === null) return undefined;
  const here = runningTurn(session.id);
  const chunks =
    here?.turnId === turnId
      ? here.feed.written
      : (await readChunks(db, turnId)).map(({ chunk }) => chunk);
  const message = await buildMessage(chunks);
  if (message?.metadata?.status !== 'streaming') return undefined;
  return storedForm(message, maxToolInputBytes());
}

/**
 * `messages` (the newest stored, oldest first) with `answer` in place of what a step stored of
 * it, or after the prompt it answers. The final message, stored before the turn's last chunks
 * reach its feed and log, is the truth, and is left as it is; so is a page read after the turn's
 * end and a new prompt.
 */
export function withAnswer(
  messages: QuantaMessage[],
  answer: QuantaMessage | undefined,
): QuantaMessage[] {
  if (!answer) return messages;
  const stored = messages.findLastIndex((message) => message.id === answer.id);
  if (stored !== -1) {
    return isStepSave(messages[stored] as QuantaMessage) ? messages.with(stored, answer) : messages;
  }
  return messages.at(-1)?.role === 'user' ? [...messages, answer] : messages;
}
