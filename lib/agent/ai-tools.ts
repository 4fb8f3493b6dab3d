import { type ToolSet as AiToolSet, jsonSchema, tool } from 'ai';
import { runTool, type ToolOutcome } from '../tools/run-tool';
import type { ToolSet } from '../tools/tool-set';

/**
 * The tool set as the AI SDK runs it. Each `execute` goes through `runTool`, so the contract's
 * validation, timeouts and error normalisation hold; the UI part receives the whole outcome,
 * the model only `modelText` (`toModelOutput`).
 */
export function toAiTools(
  toolSet: ToolSet,
  context: { agentId: string; sessionId: string },
): AiToolSet {
  return Object.fromEntries(
    toolSet.tools.map((quantaTool) => [
      quantaTool.name,
      tool<unknown, ToolOutcome>({
        description: quantaTool.description,
        // No `validate`: the SDK passes arguments through untouched, so an invalid call reaches
        // runTool and the model receives our validation message, not the SDK's.
        inputSchema: jsonSchema(quantaTool.parameters as Parameters<typeof jsonSchema>[0]),
        execute: (args, { toolCallId, abortSignal }) =>
          runTool(
            toolSet,
            { toolCallId, toolName: quantaTool.name, args },
            { ...context, signal: abortSignal },
          ),
        toModelOutput: ({ output }) => modelOutput(output),
      }),
    ]),
  );
}

function modelOutput(outcome: ToolOutcome): {
  type: 'text' | 'error-text';
  value: string;
} {
  return outcome.isError
    ? { type: 'error-text', value: outcome.modelText }
    : { type: 'text', value: outcome.modelText };
}
