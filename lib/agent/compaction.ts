import type { LanguageModelV3 } from '@ai-sdk/provider';
import { isToolUIPart, type ModelMessage, streamText } from 'ai';
import { keptForFrozen } from '../kept-for-frozen';
import type { QuantaMessage } from '../protocol';
import { toModelMessages } from './model-messages';

// Planck's compaction: a session's history outgrows what a model should be sent, so the older
// turns are summarised by the model once, the summary is kept, and each later turn sends the
// summary and the newer messages verbatim. The transcript itself keeps every message.

/** The model's summary of a session's messages at positions before `through`. */
export type ContextSummary = { text: string; through: number };

/** A stored message and its place in the session. */
export type PlacedMessage = { position: number; message: QuantaMessage };

/**
 * What a turn sends the model of its history: the messages as they are after the summary it
 * has (if any), or — when they do not fit — a new summary of the older ones, to be written
 * (`summarise`) with the summary they had, and the newer ones verbatim.
 */
export type ContextPlan =
  | { kind: 'as-is'; summary: ContextSummary | null; messages: QuantaMessage[] }
  | {
      kind: 'summarise';
      previous: ContextSummary | null;
      older: QuantaMessage[];
      /** The position of the first message kept verbatim: the new summary's `through`. */
      through: number;
      messages: QuantaMessage[];
    };

/**
 * A rough count of the tokens `value` takes as JSON: a token is about four characters of
 * English or code. Providers' tokenisers differ; no one tokeniser fits every model.
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

/**
 * About the tokens of `message` as the model sees it — the text of its parts, a tool call's
 * arguments and the text its tool gave the model (not the widget data or note the user saw) —
 * worked out without converting it, since every turn sizes its whole history. A frozen message
 * (the history cache's) is sized once: a turn in a long session sizes its new messages.
 */
export const messageTokens = keptForFrozen(tokensOf);

function tokensOf(message: QuantaMessage): number {
  let characters = 0;
  for (const part of message.parts) {
    if (part.type === 'text' || part.type === 'reasoning') characters += part.text.length;
    else if (isToolUIPart(part)) {
      const output = part.state === 'output-available' ? part.output : part.errorText;
      const forModel =
        typeof output === 'object' && output !== null && 'modelText' in output
          ? output.modelText
          : output;
      characters += JSON.stringify([part.type, part.input ?? null, forModel ?? null]).length;
    }
  }
  return Math.ceil(characters / 4);
}

/**
 * How the history fits in `budget` tokens (the summary and the messages together): as it is
 * when it fits; otherwise the messages before the newest turns that fit in half the budget are
 * to be summarised (with the summary they had), and those turns follow verbatim. The prompt's
 * turn is always kept whole.
 */
export function planContext({
  history,
  summary,
  budget,
}: {
  /** The session's stored messages from the summary's `through` on (or all), oldest first. */
  history: readonly PlacedMessage[];
  summary: ContextSummary | null;
  budget: number;
}): ContextPlan {
  const live = history.filter(({ position }) => position >= (summary?.through ?? 0));
  const messages = live.map(({ message }) => message);
  const split = splitPoint(
    messages.map(({ role }) => role),
    messages.map(messageTokens),
    summary ? estimateTokens(summary.text) : 0,
    budget,
  );
  if (split === undefined) return { kind: 'as-is', summary, messages };
  return {
    kind: 'summarise',
    previous: summary,
    older: messages.slice(0, split),
    through: (live[split] as PlacedMessage).position,
    messages: messages.slice(split),
  };
}

/**
 * Where the verbatim messages start when the history does not fit in `budget`: at the oldest
 * user message from which the rest fits in half the budget, but no later than the last user
 * message. Undefined when it fits, or when nothing before the last turn is left to summarise.
 */
export function splitPoint(
  roles: readonly QuantaMessage['role'][],
  sizes: readonly number[],
  summaryTokens: number,
  budget: number,
): number | undefined {
  if (summaryTokens + sizes.reduce((sum, size) => sum + size, 0) <= budget) return undefined;
  let kept = 0;
  let split: number | undefined;
  for (let index = sizes.length - 1; index >= 0; index--) {
    kept += sizes[index] as number;
    if (roles[index] !== 'user') continue;
    if (split !== undefined && kept > budget / 2) break;
    split = index;
  }
  return split === 0 ? undefined : split;
}

const SUMMARY_SYSTEM = [
  'You summarise a conversation between a user and an assistant. The assistant will read your',
  'summary instead of the conversation, so keep what later answers may need: the goals, facts,',
  'names, numbers, decisions, code and tool results that matter, and open questions. Write',
  'plainly, in the third person, with no preamble.',
].join(' ');

/**
 * The summary of `older` (after `previous`, the summary they already had), written by the
 * model. Each call sends at most a quarter of the budget of summary and half of messages: a
 * long history is folded in a call per part, each message's text cut to fit.
 */
export async function summarise({
  model,
  previous,
  older,
  budget,
  signal,
}: {
  model: LanguageModelV3;
  previous: string | undefined;
  older: readonly QuantaMessage[];
  budget: number;
  signal?: AbortSignal;
}): Promise<string> {
  const maxOutputTokens = Math.max(256, Math.floor(budget / 4));
  let summary = previous;
  for (const part of parts(older, older.map(messageTokens), budget / 2)) {
    const conversation = transcript(await toModelMessages(part)).slice(0, budget * 2);
    summary = (
      await streamedText({
        model,
        system: SUMMARY_SYSTEM,
        prompt: [
          summary
            ? `The summary so far:\n${summary}\n\nWhat was said after it:`
            : 'The conversation:',
          conversation,
          `Write the summary of all of it in at most ${Math.floor(maxOutputTokens * 0.6)} words.`,
        ].join('\n\n'),
        maxOutputTokens,
        maxRetries: 2,
        abortSignal: signal,
      })
    ).trim();
  }
  return summary ?? '';
}

/** The text a model call answers, streamed: some models (the demo's) only stream. */
async function streamedText(call: Parameters<typeof streamText>[0]): Promise<string> {
  let failure: unknown;
  const result = streamText({
    ...call,
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  // The SDK reports a failed call as "no output": the cause is what onError heard.
  const text = await Promise.resolve(result.text).catch((error: unknown) => {
    throw failure ?? error;
  });
  if (failure !== undefined) throw failure;
  return text;
}

/** `messages` in consecutive groups of at most `limit` tokens (a bigger message alone). */
function parts(
  messages: readonly QuantaMessage[],
  sizes: readonly number[],
  limit: number,
): QuantaMessage[][] {
  const groups: QuantaMessage[][] = [];
  let tokens = Number.POSITIVE_INFINITY;
  messages.forEach((message, index) => {
    const size = sizes[index] as number;
    if (tokens + size > limit) {
      groups.push([]);
      tokens = 0;
    }
    groups.at(-1)?.push(message);
    tokens += size;
  });
  return groups;
}

/** The conversation as plain text: no provider needs the tools defined to read it. */
export function transcript(messages: readonly ModelMessage[]): string {
  return messages.map((message) => `${message.role}: ${contentText(message.content)}`).join('\n\n');
}

function contentText(content: ModelMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      switch (part.type) {
        case 'text':
          return part.text;
        case 'tool-call':
          return `[called ${part.toolName} with ${JSON.stringify(part.input)}]`;
        case 'tool-result':
          return `[${part.toolName} returned ${JSON.stringify('value' in part.output ? part.output.value : part.output)}]`;
        case 'reasoning':
          return '';
        default:
          return `[${part.type}]`;
      }
    })
    .filter((text) => text !== '')
    .join('\n');
}
