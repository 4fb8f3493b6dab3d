import { type ToolSet as AiToolSet, jsonSchema, tool } from 'ai';
import type { ToolOutcome, ToolOutput } from '../protocol';
import { type RunContext, runTool } from '../tools/run-tool';
import type { ToolSet } from '../tools/tool-set';
import { formatBytes } from './byte-size';
import { inputBytes, inputTooLongText } from './tool-input-cap';

/** What one tool call may hand over: arguments in, a widget's data out (as JSON, in bytes). */
export type ToolLimits = { maxInputBytes: number; maxWidgetDataBytes: number };

/**
 * The tool set as the AI SDK runs it. Each `execute` goes through `runTool`, so the contract's
 * validation, timeouts and error normalisation hold; the UI part receives the whole outcome,
 * the model only `modelText` (`toModelOutput`). The UI also learns how long the call took.
 * Arguments over `maxInputBytes` are refused before the tool runs; a widget whose data is over
 * `maxWidgetDataBytes` is not stored or shown, a note says so instead.
 */
export function toAiTools(
  toolSet: ToolSet,
  context: Omit<RunContext, 'signal'>,
  { maxInputBytes, maxWidgetDataBytes }: ToolLimits,
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
          const durationMs = Math.round(performance.now() - started);
          return { ...withinWidgetLimit(outcome, maxWidgetDataBytes), durationMs };
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

/** The outcome, its widget replaced by a note when the widget's data is over the limit. */
function withinWidgetLimit(outcome: ToolOutcome, maxBytes: number): ToolOutcome {
  if (outcome.isError || outcome.ui?.kind !== 'widget') return outcome;
  const bytes = Buffer.byteLength(JSON.stringify(outcome.ui.data) ?? '');
  if (bytes <= maxBytes) return outcome;
  const text = `The ${outcome.ui.widget} widget was not shown: its data (${bytes} bytes) is over the ${formatBytes(maxBytes)} limit.`;
  return { ...outcome, ui: { kind: 'text', text } };
}
