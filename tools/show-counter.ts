import type { Intent } from '@/lib/agent/demo-intents';
import { defineTool, type JsonValue, ok, widget } from '@/lib/tools';
import type { WidgetData } from '@/lib/widgets';
import { counter } from '@/widgets/counter/actions';

export const showCounter = defineTool({
  name: 'show_counter',
  description:
    'Shows the user a counter they can increment, decrement and reset. Use it when the user ' +
    'wants to count something or asks for a counter.',
  parameters: {
    type: 'object',
    properties: {
      start: { type: 'integer', description: 'The number the counter starts at.', default: 0 },
    },
    additionalProperties: false,
  },
  widget: counter,
  execute: (_agentId, _toolCallId, { start = 0 }) =>
    ok(
      `Showed the user a counter starting at ${start}.`,
      widget('Open counter', counter.id, { count: start } satisfies WidgetData<typeof counter>),
    ),
});

/** The demo model's way to `show_counter`: any mention of a counter, starting at its number. */
export const showCounterIntent: Intent = {
  tool: showCounter.name,
  example: 'show me a counter starting at 3',
  lead: 'I’ll open a counter for you.',
  answer: ({ args }) =>
    `Here’s a counter starting at ${typeof args.start === 'number' ? args.start : 0} — use the buttons to change it.`,
  match(clause) {
    if (!/\bcounter\b/i.test(clause)) return undefined;
    const start = /-?\d+/.exec(clause);
    const args: Record<string, JsonValue> = start ? { start: Number(start[0]) } : {};
    return args;
  },
};
