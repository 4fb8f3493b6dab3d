import { isStaticToolPart, type QuantaMessage } from '../protocol';

export type WidgetCall = { label: string; widget: string; data?: unknown };

/** The widget button a tool call left in the transcript, if it left one. */
export function findWidgetCall(
  messages: readonly QuantaMessage[],
  toolCallId: string,
): WidgetCall | undefined {
  for (const message of messages) {
    for (const part of message.parts) {
      // A dynamic tool part is a call of an unknown tool: it never opened a widget.
      if (!isStaticToolPart(part) || part.toolCallId !== toolCallId) continue;
      if (part.state !== 'output-available') return undefined;
      const { output } = part;
      return !output.isError && output.ui?.kind === 'widget' ? output.ui : undefined;
    }
  }
  return undefined;
}
