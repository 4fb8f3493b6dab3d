import { APICallError, RetryError } from 'ai';
import { ModelTimeoutError } from './stall-timeout';

/**
 * What went wrong with a turn, in plain words for the person reading the chat: the provider's
 * HTTP status and message, a dropped connection, a timeout — never a stack trace.
 */
export function describeError(error: unknown): string {
  if (RetryError.isInstance(error)) {
    const attempts = error.errors.length;
    const last = describeError(error.lastError);
    return attempts > 1 ? `${last} (tried ${attempts} times)` : last;
  }
  if (error instanceof ModelTimeoutError) return error.message;
  // Before APICallError: the SDK wraps a body that broke off in one ("HTTP 200"). A reset
  // while connecting has no status: that one is "could not reach".
  const connecting = APICallError.isInstance(error) && error.statusCode === undefined;
  if (isDroppedConnection(error) && !connecting) {
    return 'The connection to the model dropped in the middle of the answer.';
  }
  if (APICallError.isInstance(error)) return describeCall(error);
  if (error instanceof Error) return error.message;
  return reported(error);
}

// Providers pass a stream's own error event on as a plain object ({ message, ... }).
function reported(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && message !== '') {
    return `The model reported an error: ${message}`;
  }
  try {
    return `The model reported an error: ${JSON.stringify(error)}`;
  } catch {
    return 'The model reported an error it could not describe.';
  }
}

function describeCall(error: APICallError): string {
  const status = error.statusCode;
  const detail = providerMessage(error);
  if (status === undefined) return `Could not reach the model at ${host(error.url)}: ${detail}`;
  if (status === 401 || status === 403) {
    return `The model provider refused the credentials (HTTP ${status}): check the API key. ${detail}`;
  }
  if (status === 429) return `The model provider is rate-limiting requests (HTTP 429). ${detail}`;
  if (status >= 500) return `The model provider failed (HTTP ${status}). ${detail}`;
  return `The model provider rejected the request (HTTP ${status}). ${detail}`;
}

/** The provider's own explanation: its JSON `error.message` when it sent one. */
function providerMessage(error: APICallError): string {
  const data = error.data as { error?: { message?: unknown } } | undefined;
  const message = data?.error?.message;
  return typeof message === 'string' && message !== '' ? message : error.message;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

// fetch (undici) ends a body whose socket closed early with TypeError('terminated'), caused by
// a SocketError or a reset; node:http (requestModel) and other stacks say ECONNRESET directly.
function isDroppedConnection(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (cause.message === 'terminated' || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') {
      return true;
    }
    cause = cause.cause;
  }
  return false;
}
