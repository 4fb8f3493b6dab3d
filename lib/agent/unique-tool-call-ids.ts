import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { isToolUIPart } from 'ai';
import { newId } from '../ids';
import { keptForFrozen } from '../kept-for-frozen';
import type { QuantaMessage } from '../protocol';
import type { PartTransform } from './part-transforms';

/**
 * Makes every tool call id the model sends unique within the session before anything sees it.
 * Some OpenAI-compatible servers number calls per answer (`call_0` every time), but a widget's
 * state and actions, and the card that opens it, find their call by id: a repeat would show an
 * earlier call's widget. An id already in `used` (the session's history, then each call as it
 * comes) is replaced by a fresh one, the same for every part of that call within one model call.
 */
export function uniqueToolCallIds(used: Set<string>): () => PartTransform {
  return () => {
    // Calls whose input is streaming, then calls sent whole (a result may still refer to them).
    const open = new Map<string, string>();
    const sent = new Map<string, string>();
    const claim = (id: string) => {
      const unique = used.has(id) ? newId() : id;
      used.add(unique);
      return unique;
    };
    const renamed = (part: LanguageModelV3StreamPart): LanguageModelV3StreamPart => {
      switch (part.type) {
        case 'tool-input-start': {
          const id = claim(part.id);
          open.set(part.id, id);
          return { ...part, id };
        }
        case 'tool-input-delta':
        case 'tool-input-end':
          return { ...part, id: open.get(part.id) ?? part.id };
        case 'tool-call': {
          const toolCallId = open.get(part.toolCallId) ?? claim(part.toolCallId);
          open.delete(part.toolCallId);
          sent.set(part.toolCallId, toolCallId);
          return { ...part, toolCallId };
        }
        case 'tool-result':
        case 'tool-approval-request':
          return { ...part, toolCallId: sent.get(part.toolCallId) ?? part.toolCallId };
        default:
          return part;
      }
    };
    return {
      transform(part, controller) {
        controller.enqueue(renamed(part));
      },
    };
  };
}

/** The tool call ids `history` holds: the ids a turn's calls must not repeat. */
export function usedToolCallIds(history: readonly QuantaMessage[]): Set<string> {
  const used = new Set<string>();
  for (const message of history) for (const id of callIdsOf(message)) used.add(id);
  return used;
}

// A frozen message (the history cache's) is read once: a turn in a long session reads its new
// messages, not the hundreds before them again.
const callIdsOf = keptForFrozen((message: QuantaMessage): readonly string[] =>
  message.parts.flatMap((part) => (isToolUIPart(part) ? [part.toolCallId] : [])),
);
