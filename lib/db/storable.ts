import { isPlainObject } from '../tools/json';

// Node 20 has String.prototype.toWellFormed; TypeScript's ES2023 library does not declare it.
declare global {
  interface String {
    toWellFormed(): string;
  }
}

/**
 * A copy of a JSON value that PostgreSQL accepts: its `text` and `jsonb` refuse U+0000 and
 * lone surrogates, which models and tools do produce. Each becomes U+FFFD, so what is stored
 * shows where a bad character was instead of the whole write failing. Object keys are cleaned
 * too, and kept as own properties (a `__proto__` key stays data).
 */
export function storable<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [cleanText(key), clean(entry)]),
    );
  }
  // Anything else (a number, a Date) is stored as it is.
  return value;
}

function cleanText(text: string): string {
  return text.toWellFormed().replaceAll('\u0000', '\uFFFD');
}
