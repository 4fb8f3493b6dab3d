import { once } from 'node:events';
import { createServer } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import { generateText, RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error';
import { ModelTimeoutError } from './stall-timeout';

const ENDPOINT = 'https://api.example.com/v1/chat/completions';

function callError(
  statusCode: number | undefined,
  extra: { data?: unknown; message?: string } = {},
) {
  return new APICallError({
    message: extra.message ?? 'Bad Request',
    url: ENDPOINT,
    requestBodyValues: {},
    statusCode,
    data: extra.data,
  });
}

const providerSays = (message: string) => ({ error: { message } });

describe('describeError', () => {
  it('401 and 403: the credentials were refused, with the provider’s own message', () => {
    expect(
      describeError(callError(401, { data: providerSays('Incorrect API key provided') })),
    ).toBe(
      'The model provider refused the credentials (HTTP 401): check the API key. ' +
        'Incorrect API key provided',
    );
    expect(describeError(callError(403, { message: 'Forbidden' }))).toBe(
      'The model provider refused the credentials (HTTP 403): check the API key. Forbidden',
    );
  });

  it('429: rate limiting', () => {
    expect(describeError(callError(429, { data: providerSays('Slow down') }))).toBe(
      'The model provider is rate-limiting requests (HTTP 429). Slow down',
    );
  });

  it('5xx: the provider failed', () => {
    expect(describeError(callError(503, { message: 'Service Unavailable' }))).toBe(
      'The model provider failed (HTTP 503). Service Unavailable',
    );
    expect(describeError(callError(500, { data: providerSays('overloaded') }))).toBe(
      'The model provider failed (HTTP 500). overloaded',
    );
  });

  it('another 4xx: the request was rejected', () => {
    expect(describeError(callError(400, { data: providerSays('max_tokens is too large') }))).toBe(
      'The model provider rejected the request (HTTP 400). max_tokens is too large',
    );
    expect(describeError(callError(404, { message: 'Not Found' }))).toBe(
      'The model provider rejected the request (HTTP 404). Not Found',
    );
  });

  it('falls back to the error message when the provider’s message is empty or not a string', () => {
    expect(describeError(callError(400, { data: providerSays(''), message: 'Bad' }))).toBe(
      'The model provider rejected the request (HTTP 400). Bad',
    );
    expect(
      describeError(callError(400, { data: { error: { message: 42 } }, message: 'Bad' })),
    ).toBe('The model provider rejected the request (HTTP 400). Bad');
  });

  it('no status: the model could not be reached, naming its host', () => {
    const error = new APICallError({
      message: 'Cannot connect to API: getaddrinfo ENOTFOUND api.example.com',
      url: ENDPOINT,
      requestBodyValues: {},
      isRetryable: true,
    });
    expect(describeError(error)).toBe(
      'Could not reach the model at api.example.com: ' +
        'Cannot connect to API: getaddrinfo ENOTFOUND api.example.com',
    );
  });

  it('no status and a URL that does not parse: names the URL as it is', () => {
    const error = new APICallError({ message: 'down', url: 'not a url', requestBodyValues: {} });
    expect(describeError(error)).toBe('Could not reach the model at not a url: down');
  });

  it('a real refused connection, as the SDK reports it, names host and port', async () => {
    // A port that was just free: nothing listens on it any more.
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    server.close();
    await once(server, 'close');

    const local = createOpenAICompatible({ name: 'local', baseURL: `http://127.0.0.1:${port}/v1` });
    const error = await generateText({ model: local('m'), prompt: 'hi', maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(describeError(error)).toMatch(
      new RegExp(`^Could not reach the model at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
  });

  it('a RetryError is described by its last error, with the number of attempts', () => {
    const errors = [callError(503, { message: 'first' }), callError(429, { message: 'last' })];
    const retried = new RetryError({
      message: 'Failed after 2 attempts',
      reason: 'maxRetriesExceeded',
      errors,
    });
    expect(describeError(retried)).toBe(
      'The model provider is rate-limiting requests (HTTP 429). last (tried 2 times)',
    );
  });

  it('a RetryError after one attempt does not mention attempts', () => {
    const retried = new RetryError({
      message: 'Failed after 1 attempt',
      reason: 'errorNotRetryable',
      errors: [callError(401, { message: 'Unauthorized' })],
    });
    expect(describeError(retried)).toBe(
      'The model provider refused the credentials (HTTP 401): check the API key. Unauthorized',
    );
  });

  it('a dropped connection: undici’s "terminated", UND_ERR_SOCKET or ECONNRESET in the causes', () => {
    const dropped = 'The connection to the model dropped in the middle of the answer.';
    expect(describeError(new TypeError('terminated'))).toBe(dropped);

    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(describeError(new Error('stream failed', { cause: socket }))).toBe(dropped);

    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(describeError(new Error('a', { cause: new Error('b', { cause: reset }) }))).toBe(
      dropped,
    );
  });

  it('a dropped connection wrapped in an APICallError is still a dropped connection', () => {
    const wrapped = new APICallError({
      message: 'terminated',
      url: ENDPOINT,
      requestBodyValues: {},
      statusCode: 200,
      cause: new TypeError('terminated'),
    });
    expect(describeError(wrapped)).toBe(
      'The connection to the model dropped in the middle of the answer.',
    );
  });

  it('a reset while connecting (no status) is "could not reach", not a dropped answer', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const connecting = new APICallError({
      message: 'Cannot connect to API: read ECONNRESET',
      url: ENDPOINT,
      requestBodyValues: {},
      cause: reset,
    });
    expect(describeError(connecting)).toMatch(/^Could not reach the model at /);
  });

  it('an error event the provider passed on as a plain object reads as its message', () => {
    expect(describeError({ message: 'model llama3.2 not found', type: 'invalid' })).toBe(
      'The model reported an error: model llama3.2 not found',
    );
    expect(describeError({ code: 7 })).toBe('The model reported an error: {"code":7}');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(describeError(circular)).toBe('The model reported an error it could not describe.');
  });

  it('a dropped connection inside a RetryError is still a dropped connection', () => {
    const retried = new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [
        new TypeError('terminated'),
        new TypeError('terminated'),
        new TypeError('terminated'),
      ],
    });
    expect(describeError(retried)).toBe(
      'The connection to the model dropped in the middle of the answer. (tried 3 times)',
    );
  });

  it('stops at a cause that points back at itself', () => {
    const looped = new Error('loop');
    looped.cause = looped;
    expect(describeError(looped)).toBe('loop');
  });

  it('a stall timeout gives its own message', () => {
    expect(describeError(new ModelTimeoutError(30_000))).toBe(
      'The model sent nothing for 30 s, so the turn was ended.',
    );
  });

  it('anything else: the error message, or the value as a string', () => {
    expect(describeError(new Error('something odd'))).toBe('something odd');
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError(42)).toBe('42');
    expect(describeError(undefined)).toBe('undefined');
  });
});
