import type { ToolOutcome } from '../protocol';
import { findNonJson, isPlainObject } from './json';
import { toModelText } from './model-text';
import type { ToolResult } from './result';
import type { ToolServices } from './services';
import { type Tool, validateArgs } from './tool';
import type { ToolSet } from './tool-set';

export const DEFAULT_TIMEOUT_MS = 60_000;

export type ToolCall = { toolCallId: string; toolName: string; args: unknown };

export type RunContext = {
  agentId: string;
  sessionId: string;
  /** Aborting it (Stop, a closed turn) aborts the tool's own signal. */
  signal?: AbortSignal;
  /** The session's services, handed to the tool in its context. */
  services: ToolServices;
};

/**
 * The one place a tool runs. Whatever the tool does — throw, reject, hang, return garbage —
 * the caller gets an outcome; a tool can fail its call but never the turn.
 */
export async function runTool(
  toolSet: ToolSet,
  call: ToolCall,
  context: RunContext,
): Promise<ToolOutcome> {
  const tool = toolSet.get(call.toolName);
  if (!tool) return failure(`unknown tool: ${call.toolName}`);

  const validation = validateArgs(tool, call.args);
  if (!validation.valid) return failure(validation.message);

  const settled = await execute(tool, call, context);
  switch (settled.type) {
    case 'timeout':
      return failure(`${tool.name} timed out after ${settled.ms} ms`);
    case 'aborted':
      return failure(`${tool.name} was aborted`);
    case 'threw':
      return failure(describeThrown(settled.error));
    case 'returned': {
      const problem = shapeProblem(settled.value);
      if (problem) return failure(`${tool.name} returned an invalid result: ${problem}`);
      return fromResult(settled.value as ToolResult);
    }
  }
}

type Settled =
  | { type: 'returned'; value: unknown }
  | { type: 'threw'; error: unknown }
  | { type: 'timeout'; ms: number }
  | { type: 'aborted' };

async function execute(tool: Tool, call: ToolCall, context: RunContext): Promise<Settled> {
  const outer = context.signal;
  if (outer?.aborted) return { type: 'aborted' };

  const ms = tool.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onOuterAbort = () => controller.abort();

  // Settles as soon as the tool's signal fires, so a tool that ignores it cannot hold the turn.
  const interrupted = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => {
      resolve({ type: 'timeout', ms });
      controller.abort();
    }, ms);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    controller.signal.addEventListener('abort', () => resolve({ type: 'aborted' }), { once: true });
  });
  const ctx = { ...context.services, signal: controller.signal, sessionId: context.sessionId };
  const ran = (async (): Promise<Settled> => {
    try {
      return {
        type: 'returned',
        value: await tool.execute(context.agentId, call.toolCallId, call.args, ctx),
      };
    } catch (error) {
      return { type: 'threw', error };
    }
  })();

  try {
    return await Promise.race([ran, interrupted]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

function fromResult(result: ToolResult): ToolOutcome {
  if (result.status === 'error') return failure(result.reason);
  const modelText = toModelText(result.result);
  return result.ui ? { isError: false, modelText, ui: result.ui } : { isError: false, modelText };
}

function failure(message: string): ToolOutcome {
  return { isError: true, modelText: toModelText(message) };
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** Why `value` is not a ToolResult, or undefined when it is one. */
function shapeProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return `expected ok(...) or err(...), got ${typeName(value)}`;
  if (value.status === 'error') {
    return typeof value.reason === 'string'
      ? undefined
      : `reason must be a string, got ${typeName(value.reason)}`;
  }
  if (value.status !== 'ok')
    return `expected ok(...) or err(...), got status ${JSON.stringify(value.status)}`;
  if (typeof value.result !== 'string' && !(value.result instanceof Uint8Array)) {
    return `result must be a string, got ${typeName(value.result)}`;
  }
  return value.ui === undefined ? undefined : uiProblem(value.ui);
}

function uiProblem(ui: unknown): string | undefined {
  if (!isPlainObject(ui)) return `ui must be an object, got ${typeName(ui)}`;
  if (ui.kind === 'text') {
    return typeof ui.text === 'string'
      ? undefined
      : `ui.text must be a string, got ${typeName(ui.text)}`;
  }
  if (ui.kind !== 'widget')
    return `ui.kind must be "text" or "widget", got ${JSON.stringify(ui.kind)}`;
  if (typeof ui.label !== 'string' || ui.label === '') return 'ui.label must be a non-empty string';
  if (typeof ui.widget !== 'string' || ui.widget === '') return 'ui.widget must be a widget id';
  const nonJson = ui.data === undefined ? undefined : findNonJson(ui.data, 'ui.data');
  return nonJson && `${nonJson} is not JSON`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
