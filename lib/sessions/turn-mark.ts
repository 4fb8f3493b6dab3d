import type { Db } from '../db/client';
import { renewTurn } from '../db/turns';

// How long a turn's mark (lib/db/turns.ts) holds its session without being renewed. The running
// instance renews it on a timer, not only when a step ends, so a model thinking for minutes is
// not taken for a dead server; and the window can be short, so a session whose server died is
// free again in minutes rather than a quarter of an hour.

/** A mark not renewed for this long is from a server that died mid-turn. */
export const STALE_TURN_MS = 2 * 60_000;

/** How often a running turn renews its mark: several renewals fit in the stale window. */
export const RENEW_TURN_MS = 20_000;

/** Renews the turn's mark until the returned function is called (when the turn ends). */
export function keepTurnMarked(db: Db, sessionId: string, turnId: string): () => void {
  const timer = setInterval(() => {
    renewTurn(db, sessionId, turnId).catch((error: unknown) =>
      // A missed renewal is not yet a lost session: the next one may well succeed.
      console.error(`Renewing the mark of turn ${turnId} failed:`, error),
    );
  }, RENEW_TURN_MS);
  // The timer alone must not keep a process alive that is otherwise done.
  timer.unref();
  return () => clearInterval(timer);
}
