import { type ToolSet as AiToolSet, jsonSchema, tool } from 'ai';
import { runTool } from '../tools/run-tool';
import type { ToolSet } from '../tools/tool-set';
import { inputBytes, inputTooLongText } from './tool-input-cap';
import type { ToolOutput } from './types';

/**
 * The tool set as the AI SDK runs it. Each `execute` goes through `runTool`, so the contract's
 * validation, timeouts and error normalisation hold; the UI part receives the whole outcome,
 * the model only `modelText` (`toModelOutput`). The UI also learns how long the call took.
 * Arguments over `maxInputBytes` are refused before the tool runs.
 */
export function toAiTools(
  toolSet: ToolSet,
  context: { agentId: string; sessionId: string },
  maxInputBytes: number,
): AiToolSet {
  const entries = Object.fromEntries(
    toolSet.tools.map((quantaTool) => [
      quantaTool.name,
      tool<unknown, ToolOutput>({
        description: quantaTool.description,
        // No `validate`: the SDK passes arguments through untouched, so an invalid call reaches
        // runTool and the model receives our validation message, not the SDK's.
        inputSchema: jsonSchema(quantaTool.parameters as Parameters<typeof jsonSchema>[0]),
        execute: async (args, { toolCallId, abortSignal }) => {
          const bytes = inputBytes(args);
          if (bytes > maxInputBytes) {
            return {
              isError: true,
              modelText: inputTooLongText(bytes, maxInputBytes),
              durationMs: 0,
            };
          }
          const started = performance.now();
          const outcome = await runTool(
            toolSet,
            { toolCallId, toolName: quantaTool.name, args },
            { ...context, signal: abortSignal },
          );
          return { ...outcome, durationMs: Math.round(performance.now() - started) };
        },
        toModelOutput: ({ output }) => modelOutput(output),
      }),
    ]),
  );
  // The SDK looks a called tool up as `tools[name]`, the name being the model's: without a
  // prototype, `toString` or `constructor` is an unknown tool like any other (an error result),
  // not a member of Object.prototype taken for a tool whose call never ends.
  return Object.assign(Object.create(null), entries);
}

function modelOutput(outcome: ToolOutput): {
  type: 'text' | 'error-text';
  value: string;
} {
  return outcome.isError
    ? { type: 'error-text', value: outcome.modelText }
    : { type: 'text', value: outcome.modelText };
}
