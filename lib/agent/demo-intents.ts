import type { JsonValue } from '../tools/json';

/** A request the demo model recognises in a user's words, and the tool call that answers it. */
export type Intent = {
  tool: string;
  /** Shown in the demo's introduction, so a visitor knows what to try. */
  example: string;
  /** The arguments for the tool when `clause` asks for it. */
  match(clause: string): Record<string, JsonValue> | undefined;
};

const MATH = /^[\d\s+\-*/^().,%a-z]+$/i;
// Arithmetic needs an operator, a function call or a unit conversion ("5 cm to inch");
// "what is the capital of France in 2024" is not a sum.
const OPERATION = /[+\-*/^%]|[a-z]\(|\d\s*[a-z]+\s+to\s+[a-z]+/i;
/** `calculate` takes at most this many characters. */
const MAX_EXPRESSION = 500;

export const intents: readonly Intent[] = [
  {
    tool: 'calculate',
    example: 'calculate 12 * (3 + 4)',
    match(clause) {
      const found = /\b(?:calculate|compute|evaluate|what(?:['’]s| is))\s+(.+?)\s*[?=]*$/i.exec(
        clause,
      );
      const expression = found?.[1];
      return expression &&
        expression.length <= MAX_EXPRESSION &&
        MATH.test(expression) &&
        OPERATION.test(expression) &&
        /\d/.test(expression)
        ? { expression }
        : undefined;
    },
  },
  {
    tool: 'show_counter',
    example: 'show me a counter starting at 3',
    match(clause) {
      if (!/\bcounter\b/i.test(clause)) return undefined;
      const start = /-?\d+/.exec(clause);
      const args: Record<string, JsonValue> = start ? { start: Number(start[0]) } : {};
      return args;
    },
  },
];

/**
 * The tool calls a message asks for: each clause ("… and …", sentences) may ask for one, so a
 * message can ask for several at once (they run in parallel). Only tools in `available`.
 */
export function recognise(
  text: string,
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
