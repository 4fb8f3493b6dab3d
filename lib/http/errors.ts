/** A failure a client caused or may see; becomes `{ error: { code, message } }` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function errorResponse(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

/** Wraps a route handler so that a thrown HttpError is an answer, and anything else a logged 500. */
export function handled<Args extends unknown[]>(
  handler: (...args: Args) => Promise<Response>,
): (...args: Args) => Promise<Response> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, error.code, error.message);
      console.error(error);
      return errorResponse(500, 'internal', 'Something went wrong on the server.');
    }
  };
}
