import 'server-only';
import { buildMessage, storedForm } from '../agent/turn-message';
import { maxToolInputBytes } from '../config';
import type { Db } from '../db/client';
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
 * ended (its final message, stored before its last chunk, is the truth: settled, capped). On an
 * instance alone the log of a stored turn may end before that chunk (see `turnRecorder`): the
 * copy given then is `withAnswer`'s to leave out, as the stored message is final.
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
