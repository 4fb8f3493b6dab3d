export const MAX_LINES = 2_000;
export const MAX_BYTES = 50_000;

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });
// U+0000 is valid UTF-8 but never appears in text; a lone surrogate cannot be encoded at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point.
const BINARY_MARKS = /[\u0000\p{Cs}]/u;

/**
 * Turns a tool's result into exactly what the model receives: bytes that are not UTF-8 text
 * are described instead of sent, and long text is cut with a visible marker.
 */
export function toModelText(result: string | Uint8Array): string {
  const text = typeof result === 'string' ? result : decodeUtf8(result);
  if (text === undefined || BINARY_MARKS.test(text)) {
    const size = typeof result === 'string' ? encoder.encode(result).length : result.length;
    return `[binary output, ${size} bytes]`;
  }
  return truncate(text);
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

function truncate(text: string): string {
  const lineEnd = lineLimitIndex(text);
  // Cheap exit for the common case: even at 3 bytes a UTF-16 unit this text fits.
  if (lineEnd === text.length && text.length * 3 <= MAX_BYTES) return text;

  const bytes = encoder.encode(text);
  const lineEndBytes =
    lineEnd === text.length ? bytes.length : encoder.encode(text.slice(0, lineEnd)).length;
  let end = Math.min(MAX_BYTES, lineEndBytes);
  if (end >= bytes.length) return text;
  // Never split a character: step back over UTF-8 continuation bytes.
  while (((bytes[end] as number) & 0xc0) === 0x80) end--;
  const kept = new TextDecoder().decode(bytes.subarray(0, end));
  return `${kept}\n[output truncated: ${bytes.length - end} bytes omitted]`;
}

/** Where text past MAX_LINES lines begins (the newline ending the last kept line), else its length. */
function lineLimitIndex(text: string): number {
  let index = -1;
  for (let line = 0; line < MAX_LINES; line++) {
    index = text.indexOf('\n', index + 1);
    if (index === -1) return text.length;
  }
  // A final newline ends the last line; it does not start another.
  return index === text.length - 1 ? text.length : index;
}
