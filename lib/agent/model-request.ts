import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { decodedBody } from '../net/decoded-body';
import { outgoingBody } from '../net/outgoing-body';

/** A model server's answer: its status and headers, and its body, decoded, unread. */
export type ModelAnswer = {
  status: number;
  statusText: string;
  headers: Headers;
  body: Readable;
};

/** Sends a request as a provider's `fetch` is called, and answers before the body is read. */
export type ModelRequest = (
  input: string | URL | Request,
  init?: RequestInit,
) => Promise<ModelAnswer>;

/** How long a new connection may take, as `fetch` allows: then the SDK retries. */
export const CONNECT_TIMEOUT_MS = 10_000;

// Idle connections are kept for the next step or turn, and let go after 4 s as `fetch` does:
// servers commonly close theirs after 5 s (uvicorn, which vLLM runs on), and one reused just
// as the server closes it fails the request.
const agents = {
  http: new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 4_000 }),
  https: new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 4_000 }),
};

/**
 * A provider's request sent over `node:http`, not `fetch`. `fetch` hands its body over as a web
 * stream read chunk by chunk, a promise or more a read, and a streamed answer comes a token a
 * read; a Node stream gives its chunks by events. Failures are told apart as `fetch`'s are: an
 * abort ends the request, or the body, with the signal's reason; a failure to connect or send
 * (refused, unreachable within CONNECT_TIMEOUT_MS) is a `TypeError('fetch failed')` with its
 * cause, which the SDK retries; a body cut short ends with the socket's error (ECONNRESET). A
 * compressed body is decoded, though none is asked for; redirects are not followed.
 */
export const requestModel: ModelRequest = async (input, init = {}) => {
  if (input instanceof Request) throw new TypeError('requestModel takes a URL, not a Request');
  const url = new URL(input);
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError('requestModel sends a body of text or bytes only');
  }
  const [client, agent] = url.protocol === 'https:' ? [https, agents.https] : [http, agents.http];
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    let response: IncomingMessage | undefined;
    const abort = () => {
      request.destroy(signal?.reason);
      response?.destroy(signal?.reason);
    };
    const request = client.request(
      url,
      {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers)),
        agent,
      },
      (answer) => {
        response = answer;
        answer.once('close', () => signal?.removeEventListener('abort', abort));
        resolve({
          status: answer.statusCode ?? 0,
          statusText: answer.statusMessage ?? '',
          headers: headersOf(answer.rawHeaders),
          // A body in an encoding Node cannot decode comes as it is, as `fetch` gives it.
          body: decodedBody(answer) ?? answer,
        });
      },
    );
    signal?.addEventListener('abort', abort, { once: true });
    request.once('socket', (socket: Socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => request.destroy(connectTimeout(url)), CONNECT_TIMEOUT_MS);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', abort);
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    const { chunk, sent } = outgoingBody(body);
    request.end(chunk, sent);
  });
};

function connectTimeout(url: URL): Error {
  return Object.assign(new Error(`connect ETIMEDOUT ${url.host}`), { code: 'ETIMEDOUT' });
}

function headersOf(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) {
    headers.append(raw[index] as string, raw[index + 1] as string);
  }
  return headers;
}
