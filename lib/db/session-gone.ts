/**
 * Whether a write failed because its session is gone: PostgreSQL's foreign_key_violation
 * (23503) on a row that names a session deleted meanwhile. Drizzle puts the driver's error,
 * which has the code, in `cause`.
 */
export function sessionGone(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === '23503') return true;
  }
  return false;
}

/**
 * `write`, done unless the session it writes for was deleted meanwhile (a turn still running
 * when its session is deleted): then there is nothing to keep, and no error to report.
 */
export function unlessSessionGone<Args extends unknown[]>(
  write: (...args: Args) => Promise<void>,
): (...args: Args) => Promise<void> {
  return async (...args) => {
    try {
      await write(...args);
    } catch (error) {
      if (!sessionGone(error)) throw error;
    }
  };
}
