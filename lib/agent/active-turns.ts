// The turns running in this process, so that Stop can reach the one it means.
type Running = { turnId: string; controller: AbortController };

// On globalThis so that Next's dev reloads see the turns started before the reload.
const shared = globalThis as typeof globalThis & { quantaTurns?: Map<string, Running> };
shared.quantaTurns ??= new Map();
const running = shared.quantaTurns;

/** Registers the session's running turn; its signal aborts when the turn is stopped. */
export function trackTurn(sessionId: string, turnId: string): AbortSignal {
  const controller = new AbortController();
  running.set(sessionId, { turnId, controller });
  return controller.signal;
}

export function untrackTurn(sessionId: string, turnId: string): void {
  if (running.get(sessionId)?.turnId === turnId) running.delete(sessionId);
}

/** Stops the session's turn if it runs here; says whether there was one. */
export function stopTurn(sessionId: string): boolean {
  const turn = running.get(sessionId);
  turn?.controller.abort();
  return turn !== undefined;
}
