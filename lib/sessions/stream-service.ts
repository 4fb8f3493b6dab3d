import 'server-only';
import type { Db } from '../db/client';
import { getSession } from '../db/sessions';
import { HttpError } from '../http/errors';
import { followTurn } from '../turns/follow-turn';
import { runningTurn } from '../turns/running-turns';
import { turnResponse } from '../turns/turn-response';
import { authorize, requester } from './access';
import { closeIfDead } from './dead-turns';

/**
 * `GET /api/sessions/:id/stream[?after=N]`: the session's running turn as a UI message stream,
 * for whoever may read the session: its chunks from the first (or those after number N), then
 * the rest as they come until it ends, from whichever instance runs it. 204 when none runs.
 */
export async function resumeTurn(db: Db, request: Request, id: string): Promise<Response> {
  const viewer = (await requester(db, request))?.ownerId;
  const session = await authorize(db, id, viewer, 'read');
  const from = firstWanted(new URL(request.url).searchParams.get('after'));
  const local = runningTurn(id);
  if (local) return turnResponse(local.feed.read(from));
  const turnId = session.activeTurnId;
  if (turnId === null || (await closeIfDead(db, session)))
    return new Response(null, { status: 204 });
  const stillRunning = async () => {
    const now = await getSession(db, id);
    if (now?.activeTurnId !== turnId) return false;
    // Its server died while we followed: close it, so the reader reloads an interrupted answer.
    return !(await closeIfDead(db, now));
  };
  return turnResponse(followTurn({ db, turnId, from, stillRunning }));
}

function firstWanted(after: string | null): number {
  if (after === null) return 0;
  if (!/^\d{1,9}$/.test(after)) {
    throw new HttpError(400, 'invalid_input', 'after must be a chunk number (0 or more)');
  }
  return Number(after) + 1;
}
