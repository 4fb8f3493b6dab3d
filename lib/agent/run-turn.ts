import type { LanguageModelV3 } from '@ai-sdk/provider';
import {
  type ModelMessage,
  stepCountIs,
  streamText,
  type UIMessageChunk,
  wrapLanguageModel,
} from 'ai';
import type { MessageMetadata, QuantaMessage, TokenUsage, TurnStatus } from '../protocol';
import type { ToolServices } from '../tools/services';
import type { ToolSet } from '../tools/tool-set';
import { toAiTools } from './ai-tools';
import { answerBudget } from './answer-budget';
import { describeError } from './describe-error';
import { toModelMessages } from './model-messages';
import { partTransforms } from './part-transforms';
import { doublingToolInputPieces } from './tool-input-pieces';
import { buildMessage, settledParts, storedForm } from './turn-message';
import { uniqueToolCallIds, usedToolCallIds } from './unique-tool-call-ids';
import { type Price, tokenUsage } from './usage';

export const SYSTEM = [
  'You are the assistant in Quanta, a chat app whose tools can show the user notes and widgets.',
  'A tool result you receive is only the text meant for you: anything the tool showed the user',
  '(a note, a button that opens a widget) is not in it. Answer from the results you get.',
].join(' ');

/** Retries of a failed model call (429, 5xx, dropped connections), honouring `retry-after`. */
const MAX_RETRIES = 2;

export type Turn = {
  model: LanguageModelV3;
  modelId: string;
  price?: Price;
  /** The transcript so far, ending with the new user message (after `summary`, if any). */
  history: QuantaMessage[];
  /** What the model gets of the messages before `history` (see lib/agent/compaction). */
  summary?: Summary;
  /** The id the assistant message is stored and streamed under. */
  messageId: string;
  toolSet: ToolSet;
  /** What the tools reach of the session: its notes, its session-wide widgets. */
  services: ToolServices;
  sessionId: string;
  agentId: string;
  maxSteps: number;
  /** The most bytes of text, reasoning and tool input the turn's model calls may produce. */
  maxAnswerBytes: number;
  /** The most bytes of arguments (as JSON) a tool call may have; longer ones are not run. */
  maxToolInputBytes: number;
  /** The most bytes (as JSON) a tool's widget data may take; a larger widget becomes a note. */
  maxWidgetDataBytes: number;
  /** Stop: ends the model call and the running tools; what was produced is kept. */
  signal: AbortSignal;
  /**
   * The assistant message so far, after each step that calls tools (the turn goes on), as it is
   * stored (see `withCappedInput`).
   */
  onStep(message: QuantaMessage): Promise<void>;
  /** The final assistant message as it is stored, its metadata saying how the turn ended. */
  onEnd(message: QuantaMessage): Promise<void>;
};

/**
 * The model's summary of the messages before a turn's history: one kept from an earlier turn,
 * or one this turn has the model write first — shown as it is written, stopped by Stop.
 */
export type Summary =
  | { kind: 'kept'; text: string }
  | { kind: 'new'; write(signal: AbortSignal): Promise<string> };

/** The system prompt, with the summary of the earlier conversation after it. */
function system(summary: string | undefined): string {
  return summary === undefined
    ? SYSTEM
    : `${SYSTEM}\n\nA summary of the conversation before the messages you are given:\n${summary}`;
}

/**
 * Runs one turn: the model with the tools, step after step, as an AI SDK UI message stream.
 * Failures of the model end the turn with an error chunk in plain words; the stream itself
 * always completes, and `onEnd` always runs once.
 */
export async function runTurn(turn: Turn): Promise<ReadableStream<UIMessageChunk>> {
  let failure: string | undefined;
  const steps: TokenUsage[] = [];
  const budget = answerBudget(turn.maxAnswerBytes);
  const toolCallIds = usedToolCallIds(turn.history);
  const saver = stepSaver(turn, () => failure);
  // Errors thrown before the model's stream (the history's conversion, say) or by it end the
  // turn with an error chunk in plain words, as the SDK's own UI message stream would.
  const errorText = (error: unknown) => {
    failure ??= describeError(error);
    return failure;
  };
  return turnStream(saver, errorText, async (write) => {
    write({
      type: 'start',
      messageId: turn.messageId,
      messageMetadata: { model: turn.modelId, status: 'streaming' },
    });
    let summary = turn.summary?.kind === 'kept' ? turn.summary.text : undefined;
    if (turn.summary?.kind === 'new') {
      const part = { type: 'data-summary', id: 'summary' } as const;
      write({ ...part, data: { status: 'summarising' } });
      try {
        summary = await turn.summary.write(turn.signal);
      } catch (error) {
        if (turn.signal.aborted) {
          write({ type: 'abort' });
        } else {
          failure = `Summarising the earlier messages failed: ${describeError(error)}`;
          write({ type: 'error', errorText: failure });
        }
        return undefined;
      }
      write({ ...part, data: { status: 'done' } });
    }
    const { earlier, latest } = atLastPrompt(await toModelMessages(turn.history));
    const result = streamText({
      model: wrapLanguageModel({
        model: turn.model,
        // In the order the parts meet them: ids first, so the budget and the pieces see the
        // ids the turn keeps; the pieces last, so the budget counts every byte as it comes.
        middleware: partTransforms(
          uniqueToolCallIds(toolCallIds),
          budget.transform,
          doublingToolInputPieces,
        ),
      }),
      system: system(summary),
      messages: latest,
      // The SDK checks `messages` against its zod schema at every turn, message by message: at
      // a full context budget (some 700 messages) that costs more than the rest of the turn's
      // start. The earlier messages are what its own conversion makes of the stored JSON (held
      // to its schema by model-messages.test.ts); they join each step's prompt as they are.
      prepareStep: ({ messages }) => ({ messages: [...earlier, ...messages] }),
      tools: toAiTools(
        turn.toolSet,
        { agentId: turn.agentId, sessionId: turn.sessionId, services: turn.services },
        { maxInputBytes: turn.maxToolInputBytes, maxWidgetDataBytes: turn.maxWidgetDataBytes },
      ),
      stopWhen: [stepCountIs(turn.maxSteps), budget.exhausted],
      maxRetries: MAX_RETRIES,
      abortSignal: turn.signal,
      onError: ({ error }) => {
        failure = describeError(error);
      },
    });
    return result.toUIMessageStream<QuantaMessage>({
      sendStart: false,
      sendReasoning: true,
      onError: describeError,
      messageMetadata: ({ part }): MessageMetadata | undefined => {
        switch (part.type) {
          case 'finish-step':
            steps.push(tokenUsage(part.usage, turn.price));
            return { steps: [...steps] };
          case 'finish':
            return {
              usage: tokenUsage(part.totalUsage, turn.price),
              ...ending(failure ? 'failed' : 'complete', failure),
            };
          default:
            return undefined;
        }
      },
    });
  });
}

/** `messages` split before the last user message: the turn's prompt starts there. */
function atLastPrompt(messages: ModelMessage[]): {
  earlier: ModelMessage[];
  latest: ModelMessage[];
} {
  const prompt = Math.max(
    messages.findLastIndex((message) => message.role === 'user'),
    0,
  );
  return { earlier: messages.slice(0, prompt), latest: messages.slice(prompt) };
}

/** Notes a turn's chunks as they pass, and saves its message when a save is due. */
type StepSaver = {
  /** Notes `chunk`; a save due before it is passed on (a step that called tools ended) runs. */
  note(chunk: UIMessageChunk): Promise<void> | undefined;
  /** Saves the final message, once, however the stream ended. */
  end(): Promise<void>;
};

/**
 * Saves the message after each step that calls tools (before the step's end is passed on) and
 * once at the end. The message is built from the chunks when a save is due, not kept up to date
 * on every chunk: an answer's frames cost a push each.
 */
function stepSaver(turn: Turn, failure: () => string | undefined): StepSaver {
  const chunks: UIMessageChunk[] = [];
  let aborted = false;
  let stepCalledTools = false;
  let ended = false;
  const forStorage = (message: QuantaMessage) => storedForm(message, turn.maxToolInputBytes);
  const messageSoFar = async (): Promise<QuantaMessage> =>
    (await buildMessage(chunks)) ?? { id: turn.messageId, role: 'assistant', parts: [] };
  return {
    note(chunk) {
      chunks.push(chunk);
      if (chunk.type === 'abort') aborted = true;
      if (chunk.type === 'start-step') stepCalledTools = false;
      if (chunk.type.startsWith('tool-input-')) stepCalledTools = true;
      // A step that called no tools is the last: `end`'s save follows at once.
      if (chunk.type !== 'finish-step' || !stepCalledTools) return undefined;
      return messageSoFar().then((message) => logged(turn.onStep(forStorage(message))));
    },
    async end() {
      if (ended) return;
      ended = true;
      const message = await messageSoFar();
      const error = failure();
      const status: TurnStatus = aborted ? 'stopped' : error ? 'failed' : 'complete';
      const metadata = { ...message.metadata, ...ending(status, error) };
      const parts = settledParts(message.parts);
      await logged(turn.onEnd(forStorage({ ...message, parts, metadata })));
    },
  };
}

/**
 * The turn as one stream: the chunks `run` writes, then those of the stream it returns (none
 * when it returns none), each noted by `saver` on its way. A failure of either becomes an error
 * chunk (`errorText`), and the stream ends. It stands for the SDK's `createUIMessageStream` and a
 * transform for the saves, which a chunk crossed as three streams (the SDK's outer stream, its
 * id transform, the saves' transform) and a read loop: every stream a chunk crosses costs
 * promises, each paying for Next's AsyncLocalStorage hooks on Node 20.
 */
function turnStream(
  saver: StepSaver,
  errorText: (error: unknown) => string,
  run: (
    write: (chunk: UIMessageChunk) => void,
  ) => Promise<ReadableStream<UIMessageChunk> | undefined>,
): ReadableStream<UIMessageChunk> {
  let source: ReadableStreamDefaultReader<UIMessageChunk> | undefined;
  let controller: ReadableStreamDefaultController<UIMessageChunk>;
  // Once the reader has left, nothing more is written, noted or described.
  let cancelled = false;
  // What `run` writes, and a failure's error chunk: no save is due for either.
  const write = (chunk: UIMessageChunk) => {
    if (cancelled) return;
    saver.note(chunk);
    controller.enqueue(chunk);
  };
  const end = async () => {
    await saver.end();
    controller.close();
  };
  return new ReadableStream<UIMessageChunk>({
    async start(streamController) {
      controller = streamController;
      try {
        const rest = await run(write);
        if (cancelled) {
          await rest?.cancel();
          return;
        }
        source = rest?.getReader();
      } catch (error) {
        if (cancelled) return;
        write({ type: 'error', errorText: errorText(error) });
      }
      if (!source) await end();
    },
    async pull() {
      let read: ReadableStreamReadResult<UIMessageChunk>;
      try {
        read = await (source as ReadableStreamDefaultReader<UIMessageChunk>).read();
      } catch (error) {
        if (cancelled) return;
        write({ type: 'error', errorText: errorText(error) });
        return end();
      }
      if (cancelled) return;
      if (read.done) return end();
      // Awaited only when a save is due: every frame passes here.
      const saving = saver.note(read.value);
      if (saving) await saving;
      controller.enqueue(read.value);
    },
    // A reader that leaves still gets the final save, and the model's stream is let go.
    async cancel(reason) {
      cancelled = true;
      await Promise.all([saver.end(), source?.cancel(reason)]);
    },
  });
}

function ending(status: TurnStatus, error: string | undefined): MessageMetadata {
  return error === undefined ? { status } : { status, error };
}

// A failed save must not cut the stream the reader is watching; it is reported in the log.
async function logged(saving: Promise<void>): Promise<void> {
  try {
    await saving;
  } catch (error) {
    console.error('Could not save the turn:', error);
  }
}
