// The home page creates a session, then navigates to it; the first message waits here until
// that session's chat sends it. A client-side navigation keeps this module, and its memory.
const pending = new Map<string, string>();

export function leavePrompt(sessionId: string, text: string): void {
  pending.set(sessionId, text);
}

/** The waiting message, handed out once. */
export function takePrompt(sessionId: string): string | undefined {
  const text = pending.get(sessionId);
  pending.delete(sessionId);
  return text;
}
