import type { SessionRow } from '../db/schema';
import { runningTurn } from '../turns/running-turns';
import { stopKey, turnBus } from '../turns/turn-bus';

/**
 * Asks the session's running turn to end, here or on the instance that runs it (which hears
 * it on the turn bus); false when no turn is marked.
 */
export function endRunningTurn(session: SessionRow): boolean {
  const local = runningTurn(session.id);
  if (local) {
    local.controller.abort();
    return true;
  }
  if (session.activeTurnId === null) return false;
  turnBus().publish(stopKey(session.activeTurnId), { type: 'stop' });
  return true;
}
