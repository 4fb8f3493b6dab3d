import type { SessionRow } from '../db/schema';

export type Action = 'read' | 'fork' | 'write';

/** What `viewer` may do with `session`; the one place share permissions are decided. */
export function permits(
  session: Pick<SessionRow, 'ownerId' | 'visibility'>,
  viewer: string | undefined,
  action: Action,
): boolean {
  if (viewer !== undefined && viewer === session.ownerId) return true;
  return session.visibility === 'public' && (action === 'read' || action === 'fork');
}

/**
 * The status a refused request gets. Nobody learns that a private session exists (404); a
 * public one is visible, so changing it is forbidden (403).
 */
export function refusal(session: Pick<SessionRow, 'visibility'>): 403 | 404 {
  return session.visibility === 'public' ? 403 : 404;
}
