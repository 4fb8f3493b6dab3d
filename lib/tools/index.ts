export type { JsonValue } from './json';
export type { ToolResult, UiContent } from './result';
export { err, note, ok, widget } from './result';
export type { RunContext, ToolCall, ToolOutcome } from './run-tool';
export { DEFAULT_TIMEOUT_MS, runTool } from './run-tool';
export type { ModelTool, Tool, ToolContext } from './tool';
export { defineTool, ToolDefinitionError, toModelTool, validateArgs } from './tool';
export type { ToolSet } from './tool-set';
export { createToolSet } from './tool-set';
