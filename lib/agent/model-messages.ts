import { convertToModelMessages, isToolUIPart, type ModelMessage, type UIMessage } from 'ai';
import { deepFreeze } from '../deep-freeze';
import type { QuantaMessage, ToolOutcome } from '../protocol';

/**
 * The stored transcript as the model may see it. A tool part keeps the whole outcome (for the
 * UI); here it shrinks to `modelText` — an error outcome to error text — so no widget label,
 * widget data or note reaches a provider, whatever tools exist now. Calls a stop cut short
 * (no result) and empty assistant messages are left out: providers reject them.
 *
 * A frozen message (one of the history cache's, see lib/sessions/views.ts) cannot change, so
 * what it converts to is kept, frozen too: a turn in a long session converts its new messages,
 * not the hundreds before them again (3.0 ms for 446 of the bench's, each turn).
 */
export async function toModelMessages(messages: readonly QuantaMessage[]): Promise<ModelMessage[]> {
  const converted: ModelMessage[] = [];
  for (const message of messages)
    converted.push(...(kept.get(message) ?? (await convert(message))));
  return converted;
}

const kept = new WeakMap<QuantaMessage, readonly ModelMessage[]>();

// Each message converts on its own: the SDK's conversion reads no message but the one it converts.
async function convert(message: QuantaMessage): Promise<readonly ModelMessage[]> {
  const parts = message.parts.map(forModel);
  const converted =
    parts.length === 0
      ? []
      : await convertToModelMessages([{ ...message, parts }], { ignoreIncompleteToolCalls: true });
  if (!Object.isFrozen(message)) return converted;
  const frozen = deepFreeze(converted);
  kept.set(message, frozen);
  return frozen;
}

// A part for the model, no longer a QuantaMessage's: a tool's output is its text alone.
function forModel(part: QuantaMessage['parts'][number]): UIMessage['parts'][number] {
  if (!isToolUIPart(part) || part.state !== 'output-available' || !isOutcome(part.output)) {
    return part;
  }
  const { isError, modelText } = part.output;
  return isError
    ? { ...part, state: 'output-error', output: undefined, errorText: modelText }
    : { ...part, output: modelText };
}

function isOutcome(output: unknown): output is ToolOutcome {
  return (
    typeof output === 'object' &&
    output !== null &&
    typeof (output as ToolOutcome).modelText === 'string' &&
    typeof (output as ToolOutcome).isError === 'boolean'
  );
}
