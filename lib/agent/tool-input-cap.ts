import { isToolUIPart } from 'ai';
import type { QuantaMessage } from '../protocol';
import { formatBytes } from './byte-size';

/** The size of a tool call's arguments: their JSON as UTF-8. */
export function inputBytes(input: unknown): number {
  return Buffer.byteLength(JSON.stringify(input) ?? '');
}

/** What the model is told instead of running a call whose arguments are over the cap. */
export function inputTooLongText(bytes: number, maxBytes: number): string {
  return `The arguments were too long (${bytes} bytes; at most ${formatBytes(maxBytes)}), so the tool did not run. Call it again with shorter arguments.`;
}

/**
 * A tool part as it is stored: arguments over the cap (the call was refused, or cut short)
 * are replaced by a short note saying so, which the tool card shows and a later turn sends
 * back to the model as the call's arguments.
 */
export function withCappedInput(
  part: QuantaMessage['parts'][number],
  maxBytes: number,
): QuantaMessage['parts'][number] {
  if (!isToolUIPart(part)) return part;
  const { rawInput, ...call } = part as typeof part & { rawInput?: unknown };
  const bytes = inputBytes(part.input) + (rawInput === undefined ? 0 : inputBytes(rawInput));
  if (bytes <= maxBytes) return part;
  // An object, as arguments are: providers take nothing else as a call's arguments.
  const input = {
    omitted: `${bytes} bytes of arguments, over the ${formatBytes(maxBytes)} limit, were not kept.`,
  };
  return { ...call, input } as QuantaMessage['parts'][number];
}
