import { validate } from '../schema';
import { HttpError } from './errors';

/**
 * Reads a JSON body of at most `maxBytes` and checks it against `schema` (the same ajv path as
 * tool arguments), so a handler only ever sees valid input that can be stored as it is.
 */
export async function readJson<T>(request: Request, schema: object, maxBytes: number): Promise<T> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await bodyText(request, maxBytes);
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw new HttpError(
      400,
      'invalid_text',
      `${unstorable}: contains a NUL character or an unpaired surrogate, which cannot be stored.`,
    );
  }
  const result = validate(schema, body, 'body');
  if (!result.valid) throw new HttpError(400, 'invalid_input', result.message);
  return body as T;
}

/**
 * The body as text, refused as soon as more than `maxBytes` have come: a body sent without
 * `Content-Length` (chunked) is never held whole first. API requests do not pass through Next's
 * proxy, which would have copied at most 10 MB of it (see proxy.ts).
 */
async function bodyText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.byteLength;
    if (bytes > maxBytes) {
      void reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    text += decoder.decode(read.value, { stream: true });
  }
  return text + decoder.decode();
}

// A NUL or a lone surrogate: text PostgreSQL refuses (and no person types).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/**
 * The path (as validation messages name it: `message.parts[0].text`, or `body` for the root) of
 * a string, value or key, in `value` that cannot be stored, if any. Walked with a stack, not
 * recursion, so a deeply nested body cannot overflow the call stack.
 */
export function findUnstorableText(value: unknown): string | undefined {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (UNSTORABLE.test(item)) return path || 'body';
    } else if (Array.isArray(item)) {
      item.forEach((element, index) => {
        pending.push([element, `${path}[${index}]`]);
      });
    } else if (item !== null && typeof item === 'object') {
      for (const [key, element] of Object.entries(item)) {
        const child = path ? `${path}.${key}` : key;
        if (UNSTORABLE.test(key)) return child;
        pending.push([element, child]);
      }
    }
  }
  return undefined;
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'too_large', `The request body is larger than ${maxBytes} bytes.`);
}
