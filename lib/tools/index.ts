// Wire types a tool author needs, so that one import serves to write a tool.
export type { JsonValue, ToolOutcome, UiContent } from '../protocol';
export type { ToolResult } from './result';
export { err, note, ok, widget } from './result';
export type { RunContext, ToolCall } from './run-tool';
export { DEFAULT_TIMEOUT_MS, runTool } from './run-tool';
export type { SessionNotes, SessionWidgets, ToolServices, WidgetChange } from './services';
export type { ModelTool, Tool, ToolContext } from './tool';
export { defineTool, ToolDefinitionError, toModelTool, validateArgs } from './tool';
export type { ToolSet } from './tool-set';
export { createToolSet } from './tool-set';
