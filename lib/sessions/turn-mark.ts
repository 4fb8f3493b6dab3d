import type { Db } from '../db/client';
import type { SessionRow } from '../db/schema';
import { renewTurn } from '../db/turns';

// How long a turn's mark (lib/db/turns.ts) holds its session without being renewed. The running
// instance renews it on a timer, not only when a step ends, so a model thinking for minutes is
// not taken for a dead server; and the window can be short, so a session whose server died is
// free again in minutes rather than a quarter of an hour.

/** A mark not renewed for this long is from a server that died mid-turn. */
export const STALE_TURN_MS = 2 * 60_000;

/** How often a running turn renews its mark: several renewals fit in the stale window. */
export const RENEW_TURN_MS = 20_000;

/**
 * Renews the turn's mark until the returned function is called (when the turn ends). Should the
 * mark turn out to be another turn's (this one was taken for dead: its renewals failed for the
 * whole stale window), `onLost` is called once and renewing stops: two turns must not run.
 */
export function keepTurnMarked(
  db: Db,
  sessionId: string,
  turnId: string,
  onLost: () => void,
): () => void {
  const timer = setInterval(() => {
    renewTurn(db, sessionId, turnId).then(
      (held) => {
        if (held) return;
        clearInterval(timer);
        onLost();
      },
      // A missed renewal is not yet a lost session: the next one may well succeed.
      (error: unknown) => console.error(`Renewing the mark of turn ${turnId} failed:`, error),
    );
  }, RENEW_TURN_MS);
  // The timer alone must not keep a process alive that is otherwise done.
  timer.unref();
  return () => clearInterval(timer);
}

/** Whether the session's turn mark is from a server that died mid-turn (or there is none). */
export function isStale(
  session: Pick<SessionRow, 'activeTurnStartedAt'>,
  now: number = Date.now(),
): boolean {
  return (session.activeTurnStartedAt?.getTime() ?? 0) <= now - STALE_TURN_MS;
}
