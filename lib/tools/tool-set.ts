import type { WidgetDefinition } from '../widgets/actions';
import { type ModelTool, type Tool, ToolDefinitionError, toModelTool } from './tool';

export type ToolSet = {
  tools: readonly Tool[];
  get(name: string): Tool | undefined;
  /** What the provider is told: name, description and parameters of each tool. */
  modelTools: readonly ModelTool[];
  /** The widgets paired with these tools, each once (the seed's `list_widgets/0`). */
  widgets: readonly WidgetDefinition[];
};

/** Builds the tool set an agent runs with; a duplicate tool name or widget id fails at start-up. */
export function createToolSet(tools: readonly Tool[]): ToolSet {
  const byName = new Map<string, Tool>();
  const widgets = new Map<string, WidgetDefinition>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new ToolDefinitionError(`duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
    const widget = tool.widget;
    if (!widget) continue;
    const known = widgets.get(widget.id);
    if (known && known !== widget) {
      throw new ToolDefinitionError(`two different widgets share the id: ${widget.id}`);
    }
    widgets.set(widget.id, widget);
  }
  return {
    tools: [...tools],
    get: (name) => byName.get(name),
    modelTools: tools.map(toModelTool),
    widgets: [...widgets.values()],
  };
}
