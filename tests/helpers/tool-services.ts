import type { ToolServices } from '@/lib/tools';

/** One session's services kept in memory, with what they hold, for a tool test to look at. */
export type MemoryServices = ToolServices & {
  /** The notes added, oldest first. */
  kept: string[];
  /** Each widget's data, by widget id. */
  widgetData: Map<string, unknown>;
};

/**
 * What a turn gives its tools, without a database or viewers: each call of `memoryServices()`
 * is one session of its own. A change is applied once (nobody else changes the data here).
 */
export function memoryServices(): MemoryServices {
  const kept: string[] = [];
  const widgetData = new Map<string, unknown>();
  const dataOf = <Data>(widget: { id: string }, empty: Data): Data =>
    widgetData.has(widget.id) ? (widgetData.get(widget.id) as Data) : empty;
  return {
    kept,
    widgetData,
    notes: {
      add: async (text) => {
        kept.push(text);
      },
      count: async () => kept.length,
    },
    widgets: {
      read: async (widget, empty) => dataOf(widget, empty),
      change: async (widget, empty, change) => {
        const outcome = change(dataOf(widget, empty));
        if ('data' in outcome) widgetData.set(widget.id, outcome.data);
        return outcome;
      },
    },
  };
}
