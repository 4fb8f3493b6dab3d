import type { TurnFeed } from './turn-feed';

// The turns running in this process, by session: what Stop aborts, and what readers here
// replay and follow.

export type RunningTurn = { turnId: string; controller: AbortController; feed: TurnFeed };

// On globalThis so that Next's dev reloads see the turns started before the reload.
const shared = globalThis as typeof globalThis & { quantaTurns?: Map<string, RunningTurn> };
shared.quantaTurns ??= new Map();
const running = shared.quantaTurns;

export function trackTurn(sessionId: string, turn: RunningTurn): void {
  running.set(sessionId, turn);
}

export function untrackTurn(sessionId: string, turnId: string): void {
  if (running.get(sessionId)?.turnId === turnId) running.delete(sessionId);
}

/** The session's turn, if it runs in this process. */
export function runningTurn(sessionId: string): RunningTurn | undefined {
  return running.get(sessionId);
}
