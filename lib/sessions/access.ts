import 'server-only';
import { type Identity, identify } from '../auth/identity';
import { isSameOrigin } from '../auth/origin';
import { type Action, permits, refusal } from '../auth/permissions';
import type { Db } from '../db/client';
import type { SessionRow } from '../db/schema';
import { getSession } from '../db/sessions';
import { HttpError } from '../http/errors';
import { ID_PATTERN } from '../ids';
import { enforceRate } from '../limits';

// Who is asking, and whether they may: the checks every session service starts with.

/** Who sent `request`, from its API token or its cookie; each one's requests count to its limit. */
export async function requester(db: Db, request: Request): Promise<Identity | undefined> {
  const identity = await identify(db, request.headers);
  if (identity) await enforceRate('requestsPerMinute', identity.ownerId);
  return identity;
}

/** The requester of a state-changing request: known, and (when riding on a cookie) same-origin. */
export async function writer(db: Db, request: Request): Promise<Identity> {
  const identity = await requester(db, request);
  if (!identity)
    throw new HttpError(401, 'unauthenticated', 'Sign in with the cookie or a bearer token.');
  if (identity.via === 'cookie' && !isSameOrigin(request.headers)) {
    throw new HttpError(403, 'cross_origin', 'Cross-origin requests may not change sessions.');
  }
  return identity;
}

/** The session `id` if `viewer` may do `action` with it; otherwise the refusal it deserves. */
export async function authorize(
  db: Db,
  id: string,
  viewer: string | undefined,
  action: Action,
): Promise<SessionRow> {
  const session = ID_PATTERN.test(id) ? await getSession(db, id) : undefined;
  if (!session || !permits(session, viewer, 'read')) throw noSuchSession();
  if (!permits(session, viewer, action)) {
    throw new HttpError(refusal(session), 'forbidden', 'Only the owner can change this session.');
  }
  return session;
}

/** The answer for a session that is not there, or not the viewer's to see. */
export function noSuchSession(): HttpError {
  return new HttpError(404, 'not_found', 'No such session.');
}
