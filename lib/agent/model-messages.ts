import { convertToModelMessages, isToolUIPart, type ModelMessage, type UIMessage } from 'ai';
import type { QuantaMessage, ToolOutcome } from '../protocol';

/**
 * The stored transcript as the model may see it. A tool part keeps the whole outcome (for the
 * UI); here it shrinks to `modelText` — an error outcome to error text — so no widget label,
 * widget data or note reaches a provider, whatever tools exist now. Calls a stop cut short
 * (no result) and empty assistant messages are left out: providers reject them.
 */
export function toModelMessages(messages: readonly QuantaMessage[]): Promise<ModelMessage[]> {
  const visible = messages
    .map((message) => ({ ...message, parts: message.parts.map(forModel) }))
    .filter((message) => message.parts.length > 0);
  return convertToModelMessages(visible, { ignoreIncompleteToolCalls: true });
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
