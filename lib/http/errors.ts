import type { ApiErrorBody } from '../protocol';

/**
 * A failure a client caused or may see; becomes `{ error: { code, message } }` (`ApiErrorBody`)
 * with `status`, plus `current` when the client needs the server's state to recover (a stale
 * version), and `headers` when the answer needs some (`Retry-After` on a 429).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly current?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  current?: unknown,
  headers?: Record<string, string>,
): Response {
  const error = current === undefined ? { code, message } : { code, message, current };
  const body: ApiErrorBody = { error };
  return Response.json(body, { status, headers });
}

/** Wraps a route handler so that a thrown HttpError is an answer, and anything else a logged 500. */
export function handled<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof HttpError) {
        return errorResponse(error.status, error.code, error.message, error.current, error.headers);
      }
      console.error(error);
      return errorResponse(500, 'internal', 'Something went wrong on the server.');
    }
  };
}
