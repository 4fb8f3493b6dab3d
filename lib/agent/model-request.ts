import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

/** A model server's answer: its status and headers, and its body as the socket gives it. */
export type ModelAnswer = {
  status: number;
  statusText: string;
  headers: Headers;
  body: IncomingMessage;
};

/** Sends a request as a provider's `fetch` is called, and answers before the body is read. */
export type ModelRequest = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<ModelAnswer>;

/**
 * A provider's request sent over `node:http`, not `fetch`. `fetch` hands its body over as a web
 * stream read chunk by chunk, a promise or more a read, and a streamed answer comes a token a
 * read; a Node stream gives its chunks by events. Failures are `fetch`'s, so the AI SDK tells
 * them apart as it does its own: an abort is the signal's reason, and a network failure is a
 * `TypeError('fetch failed')` with the cause, which the SDK retries. Nothing here asks for a
 * compressed answer or follows a redirect: a model server's API does neither unasked.
 */
export const requestModel: ModelRequest = async (input, init = {}) => {
  if (input instanceof Request) throw new TypeError('requestModel takes a URL, not a Request');
  const url = new URL(input);
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError('requestModel sends a body of text or bytes only');
  }
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    // The request and its body end with the signal's own reason, as `fetch`'s do: the SDK and a
    // turn's Stop know an abort by it.
    const abort = () => {
      request.destroy(signal?.reason);
      response?.destroy(signal?.reason);
    };
    const request = client.request(
      url,
      { method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)) },
      (answer) => {
        response = answer;
        answer.once('close', () => signal?.removeEventListener('abort', abort));
        resolve({
          status: answer.statusCode ?? 0,
          statusText: answer.statusMessage ?? '',
          headers: headersOf(answer.rawHeaders),
          body: answer,
        });
      },
    );
    signal?.addEventListener('abort', abort, { once: true });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', abort);
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    request.end(body);
  });
};

function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    headers.append(raw[index] as string, raw[index + 1] as string);
  }
  return headers;
}
