import type { QuantaMessage, QuantaToolPart } from './messages';

// The AI SDK has these guards too, but any value imported from `ai` brings the whole package
// and zod into the page (docs/DESIGN.md, "The chat in the browser"): the UI uses these.

type Part = QuantaMessage['parts'][number];

/**
 * Whether a part is a tool call: of a tool the tool set has (`tool-<name>`) or not
 * (`dynamic-tool`).
 */
export function isToolPart(part: Part): part is QuantaToolPart {
  return part.type.startsWith('tool-') || part.type === 'dynamic-tool';
}

/** Whether a part is a call of a tool the tool set has. */
export function isStaticToolPart(
  part: Part,
): part is Exclude<QuantaToolPart, { type: 'dynamic-tool' }> {
  return part.type.startsWith('tool-');
}

/** The name of the tool a part calls. */
export function toolNameOf(part: QuantaToolPart): string {
  return part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
}
