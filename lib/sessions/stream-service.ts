import 'server-only';
import type { UIMessageChunk } from 'ai';
import type { Db } from '../db/client';
import type { SessionRow } from '../db/schema';
import { getSession } from '../db/sessions';
import { HttpError } from '../http/errors';
import { acquireLease } from '../limits';
import { followTurn } from '../turns/follow-turn';
import { runningTurn } from '../turns/running-turns';
import { turnResponse } from '../turns/turn-response';
import { authorize, requester } from './access';
import { closeIfDead } from './dead-turns';

// Readers without an identity (a public session's) share one allowance, as for events.
const ANONYMOUS = 'anonymous';

/**
 * `GET /api/sessions/:id/stream[?after=N]`: the session's running turn as a UI message stream,
 * for whoever may read the session: its chunks from the first (or those after number N), then
 * the rest as they come until it ends, from whichever instance runs it. 204 when none runs.
 */
export async function resumeTurn(db: Db, request: Request, id: string): Promise<Response> {
  const viewer = (await requester(db, request))?.ownerId;
  const session = await authorize(db, id, viewer, 'read');
  const from = firstWanted(new URL(request.url).searchParams.get('after'));
  const stream = await turnStream(db, session, from);
  if (!stream) return new Response(null, { status: 204 });
  // A reader holds one of the viewer's live streams until the turn's stream ends or is left.
  const lease = await acquireLease('eventStreams', viewer ?? ANONYMOUS).catch(async (error) => {
    await stream.cancel();
    throw error;
  });
  return turnResponse(releasingWhenDone(stream, () => void lease.release()));
}

/** The session's running turn from chunk `from`, here or elsewhere; undefined when none runs. */
async function turnStream(
  db: Db,
  session: SessionRow,
  from: number,
): Promise<ReadableStream<UIMessageChunk> | undefined> {
  const local = runningTurn(session.id);
  if (local) return local.feed.read(from);
  const turnId = session.activeTurnId;
  if (turnId === null || (await closeIfDead(db, session))) return undefined;
  const stillRunning = async () => {
    const now = await getSession(db, session.id);
    if (now?.activeTurnId !== turnId) return false;
    // Its server died while we followed: close it, so the reader reloads an interrupted answer.
    return !(await closeIfDead(db, now));
  };
  return followTurn({ db, turnId, from, stillRunning });
}

/** `stream`, calling `release` once when it ends, fails or its reader leaves. */
function releasingWhenDone<T>(stream: ReadableStream<T>, release: () => void): ReadableStream<T> {
  const reader = stream.getReader();
  let released = false;
  const releaseOnce = () => {
    if (released) return;
    released = true;
    release();
  };
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          releaseOnce();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        releaseOnce();
        controller.error(error);
      }
    },
    async cancel(reason) {
      releaseOnce();
      await reader.cancel(reason);
    },
  });
}

function firstWanted(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,9}$/.test(after)) {
    throw new HttpError(400, 'invalid_input', 'after must be a chunk number (0 or more)');
  }
  return Number(after) + 1;
}
