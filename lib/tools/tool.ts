import {
  compileSchema,
  type ObjectSchema,
  type Validation,
  type ValueOf,
  validate,
} from '../schema';
import type { WidgetDefinition } from '../widgets/actions';
import type { ToolResult } from './result';
import type { ToolServices } from './services';

/** What a call gets beside its arguments: its signal, its session and that session's services. */
export type ToolContext = ToolServices & {
  /** Aborted when the call times out or the turn is stopped; a long tool should stop then. */
  signal: AbortSignal;
  sessionId: string;
};

type ToolShape<Parameters extends ObjectSchema, Args> = {
  /** What the model calls the tool by; unique within a tool set. */
  name: string;
  /** Sent to the model: its quality decides how reliably the model uses the tool. */
  description: string;
  parameters: Parameters;
  // Method syntax on purpose: it lets a Tool<{ path: string }> stand where a Tool is expected.
  execute(
    agentId: string,
    toolCallId: string,
    args: Args,
    ctx: ToolContext,
  ): ToolResult | Promise<ToolResult>;
  widget?: WidgetDefinition;
  timeoutMs?: number;
};

export type Tool<Args = unknown> = ToolShape<ObjectSchema, Args>;

/** What reaches a provider: the seed's `to_ai_tool/1`. */
export type ModelTool = Pick<Tool, 'name' | 'description' | 'parameters'>;

// NoInfer: the schema alone decides the argument type; `execute` is only checked against it.
type ToolOptions<Schema extends ObjectSchema> = ToolShape<Schema, NoInfer<ValueOf<Schema>>>;

/** A tool that keeps its exact schema type, so it can be spread into another definition. */
export type DefinedTool<Schema extends ObjectSchema> = ToolShape<Schema, ValueOf<Schema>>;

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export class ToolDefinitionError extends Error {
  override name = 'ToolDefinitionError';
}

/**
 * Builds a tool (the seed's `new/1`) with `args` typed from `parameters`, and rejects a
 * malformed definition now, at start-up, rather than when the model first calls it.
 */
export function defineTool<const Schema extends ObjectSchema>(
  definition: ToolOptions<Schema>,
): DefinedTool<Schema> {
  const { name, description, parameters, execute, widget, timeoutMs } = definition;
  const fail = (problem: string): never => {
    throw new ToolDefinitionError(`tool ${JSON.stringify(name)}: ${problem}`);
  };
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    fail('name must match ^[a-zA-Z0-9_-]{1,64}$');
  }
  if (typeof description !== 'string' || description.trim() === '') {
    fail('description must be a non-empty string');
  }
  if (typeof parameters !== 'object' || parameters === null || parameters.type !== 'object') {
    fail('parameters must be a JSON Schema with type "object"');
  }
  try {
    compileSchema(parameters);
  } catch (error) {
    fail(`parameters do not compile: ${(error as Error).message}`);
  }
  if (typeof execute !== 'function') fail('execute must be a function');
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    fail('timeoutMs must be a positive integer');
  }
  if (widget !== undefined) {
    if (!(typeof widget.id === 'string' && widget.id !== ''))
      fail('widget must have a non-empty id');
    try {
      compileSchema(widget.data as object);
    } catch (error) {
      fail(`widget ${widget.id}'s data schema does not compile: ${(error as Error).message}`);
    }
  }
  // The options are the tool; TypeScript cannot relate the two generic shapes without a cast.
  return definition as unknown as DefinedTool<Schema>;
}

export function toModelTool(tool: Tool): ModelTool {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/**
 * Checks `args` against the tool's schema (compiled once per schema). An invalid call gets one
 * message naming every failing path, suitable to return from a tool as `err(message)`.
 * `runTool` calls it before every `execute`, so tools need not repeat the check.
 */
export function validateArgs(tool: Tool, args: unknown): Validation {
  return validate(tool.parameters, args);
}
