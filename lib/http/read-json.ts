import { validate } from '../tools/schema';
import { HttpError } from './errors';

/**
 * Reads a JSON body of at most `maxBytes` and checks it against `schema` (the same ajv path as
 * tool arguments), so a handler only ever sees valid input.
 */
export async function readJson<T>(request: Request, schema: object, maxBytes: number): Promise<T> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await request.text();
  if (Buffer.byteLength(text) > maxBytes) throw tooLarge(maxBytes);
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  const result = validate(schema, body, 'body');
  if (!result.valid) throw new HttpError(400, 'invalid_input', result.message);
  return body as T;
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'too_large', `The request body is larger than ${maxBytes} bytes.`);
}
