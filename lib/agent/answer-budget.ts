import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { formatBytes } from './byte-size';
import type { PartTransform } from './part-transforms';

/** A turn whose answer outgrew its budget; the turn ends with this message. */
export class AnswerTooLongError extends Error {
  override name = 'AnswerTooLongError';
  constructor(readonly maxBytes: number) {
    super(`The answer grew longer than ${formatBytes(maxBytes)}, so the turn was ended there.`);
  }
}

/** The words that close an answer cut at its budget, shown where the answer stops. */
export function answerCutMarker(maxBytes: number): string {
  return `[answer too long: stopped at ${formatBytes(maxBytes)}]`;
}

export type AnswerBudget = {
  /** Counts and cuts the model calls of one turn: a transform for each of them. */
  transform(): PartTransform;
  /** Whether the budget ran out: the turn must not call the model again. */
  exhausted(): boolean;
};

// Any id the provider does not use for a text part of its own.
const MARKER_ID = 'quanta-answer-cut';

/**
 * The byte budget of one turn's output beside its step budget: the text, reasoning and tool
 * input (as UTF-8) of all its model calls together. The part that crosses it is cut to fit (a
 * tool call's input is not sent at all), the open parts are closed, a text part with the cut
 * marker follows, and the call ends with an AnswerTooLongError part; the model's stream is
 * cancelled, which ends the request behind it. So a model cannot make a turn hold, stream and
 * store an answer of any size.
 */
export function answerBudget(maxBytes: number): AnswerBudget {
  let used = 0;
  let exhausted = false;
  return {
    exhausted: () => exhausted,
    transform() {
      const open = new Map<string, 'text' | 'reasoning'>();
      const streamedInputs = new Set<string>();
      return {
        transform(part, controller) {
          const size = sizeOf(part, streamedInputs);
          if (used + size <= maxBytes) {
            used += size;
            track(part, open);
            controller.enqueue(part);
            return;
          }
          exhausted = true;
          if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
            const delta = cutToBytes(part.delta, maxBytes - used);
            if (delta !== '') controller.enqueue({ ...part, delta });
          }
          used = maxBytes;
          for (const [id, kind] of open) {
            controller.enqueue({ type: kind === 'text' ? 'text-end' : 'reasoning-end', id });
          }
          controller.enqueue({ type: 'text-start', id: MARKER_ID });
          controller.enqueue({
            type: 'text-delta',
            id: MARKER_ID,
            delta: answerCutMarker(maxBytes),
          });
          controller.enqueue({ type: 'text-end', id: MARKER_ID });
          controller.enqueue({ type: 'error', error: new AnswerTooLongError(maxBytes) });
          controller.terminate();
        },
      };
    },
  };
}

function sizeOf(part: LanguageModelV3StreamPart, streamedInputs: Set<string>): number {
  switch (part.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return Buffer.byteLength(part.delta);
    case 'tool-input-delta':
      streamedInputs.add(part.id);
      return Buffer.byteLength(part.delta);
    case 'tool-call':
      return streamedInputs.has(part.toolCallId) ? 0 : Buffer.byteLength(part.input);
    default:
      return 0;
  }
}

function track(part: LanguageModelV3StreamPart, open: Map<string, 'text' | 'reasoning'>): void {
  if (part.type === 'text-start') open.set(part.id, 'text');
  else if (part.type === 'reasoning-start') open.set(part.id, 'reasoning');
  else if (part.type === 'text-end' || part.type === 'reasoning-end') open.delete(part.id);
}

/** The longest start of `text` that takes at most `maxBytes` as UTF-8, whole characters only. */
function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off to the first byte of the character that does not fit (continuation: 0b10xxxxxx).
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString();
}
