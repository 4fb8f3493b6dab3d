import type { JsonValue } from '../protocol';

/**
 * A request the demo model recognises in a user's words, and the tool call that answers it.
 * Each lives beside its tool (`tools/`), which hands them to the demo model in order: the first
 * intent that matches a clause wins.
 */
export type Intent = {
  tool: string;
  /** Shown in the demo's introduction, so a visitor knows what to try. */
  example: string;
  /** The arguments for the tool when `clause` asks for it. */
  match(clause: string): Record<string, JsonValue> | undefined;
  /** What the demo says before it calls the tool: "Let me work that out." */
  lead: string;
  /**
   * What the demo says once the tool succeeded, in words that use its result ("12 × (3 + 4) =
   * 84."): `text` is exactly what the model was sent, `args` the call's arguments.
   */
  answer(result: { args: Record<string, JsonValue>; text: string }): string;
};

/**
 * The tool calls a message asks for: each clause ("… and …", sentences) may ask for one, so a
 * message can ask for several at once (they run in parallel). Only tools in `available`.
 */
export function recognise(
  text: string,
  intents: readonly Intent[],
  available: ReadonlySet<string>,
): { tool: string; args: Record<string, JsonValue> }[] {
  const calls = [];
  for (const clause of text.split(/\s+and\s+|[.;!?]\s+|\n+/i)) {
    for (const intent of intents) {
      if (!available.has(intent.tool)) continue;
      const args = intent.match(clause.trim());
      if (args) {
        calls.push({ tool: intent.tool, args });
        break;
      }
    }
  }
  return calls;
}
