import { isToolUIPart } from 'ai';
import type { QuantaMessage, ToolOutput } from '../agent/types';

export type WidgetCall = { label: string; widget: string; data?: unknown };

/** The widget button a tool call left in the transcript, if it left one. */
export function findWidgetCall(
  messages: readonly QuantaMessage[],
  toolCallId: string,
): WidgetCall | undefined {
  for (const message of messages) {
    for (const part of message.parts) {
      if (!isToolUIPart(part) || part.toolCallId !== toolCallId) continue;
      if (part.state !== 'output-available') return undefined;
      const output = part.output as ToolOutput;
      return !output.isError && output.ui?.kind === 'widget' ? output.ui : undefined;
    }
  }
  return undefined;
}
