import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { newId } from '../ids';
import type { JsonValue } from '../protocol';
import { type Intent, recognise } from './demo-intents';

export const DEMO_MODEL_ID = 'demo:offline';

const CONFIGURE =
  'To talk to a real model, set one of OPENAI_API_KEY, ANTHROPIC_API_KEY, ' +
  'GOOGLE_GENERATIVE_AI_API_KEY or AI_GATEWAY_API_KEY — or OPENAI_COMPATIBLE_BASE_URL for ' +
  'Ollama, llama.cpp, vLLM or LM Studio — and restart Quanta.';

export type DemoModelOptions = {
  /** The pause before each word, so a reader can follow. */
  delayMs?: number;
  /** The requests it recognises, each for a tool (the shipped ones: `demoIntents` in tools/). */
  intents?: readonly Intent[];
};

/**
 * Quanta's offline model: a real language model (the AI SDK's interface) that needs no key and
 * no network. It recognises requests for the tools its intents name, says what it will do,
 * calls them with valid arguments, answers in words that use their results, and otherwise says
 * what it is. Deterministic, so the whole product — tools, notes, widgets — can be tried,
 * demonstrated and tested offline.
 */
export function createDemoModel({
  delayMs = 18,
  intents = [],
}: DemoModelOptions = {}): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'demo',
    modelId: 'offline',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('The demo model only streams.');
    },
    async doStream(options) {
      const reply = replyTo(options, intents);
      return { stream: streamReply(reply, options, delayMs) };
    },
  };
}

type Reply = {
  text: string;
  calls: { tool: string; args: Record<string, unknown> }[];
};

function replyTo(
  { prompt, tools = [] }: LanguageModelV3CallOptions,
  intents: readonly Intent[],
): Reply {
  const last = prompt.at(-1);
  if (last?.role === 'tool') {
    return { text: fromToolResults(last.content, callArguments(prompt), intents), calls: [] };
  }
  const available = new Set(tools.filter((tool) => tool.type === 'function').map((t) => t.name));
  const calls = recognise(lastUserText(prompt), intents, available);
  if (calls.length > 0) {
    // Each call comes from an intent, so each has its lead-in; two alike are said once.
    const leads = calls.map((call) => intents.find((intent) => intent.tool === call.tool)?.lead);
    return { text: [...new Set(leads)].join(' '), calls };
  }
  return { text: introduction(intents, available), calls: [] };
}

function lastUserText(prompt: LanguageModelV3Prompt): string {
  const message = prompt.findLast((entry) => entry.role === 'user');
  if (!message) return '';
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ');
}

/** The arguments of each tool call made so far, by call id. */
function callArguments(prompt: LanguageModelV3Prompt): Map<string, Record<string, JsonValue>> {
  const calls = new Map<string, Record<string, JsonValue>>();
  for (const message of prompt) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-call' || !isRecord(part.input)) continue;
      calls.set(part.toolCallId, part.input as Record<string, JsonValue>);
    }
  }
  return calls;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

type ToolMessage = Extract<LanguageModelV3Prompt[number], { role: 'tool' }>;

/**
 * An answer from the results, one paragraph per call: in the words of the tool's intent, or —
 * for a tool it has none for, and for a failure — the first line of what the tool said.
 */
function fromToolResults(
  content: ToolMessage['content'],
  args: ReadonlyMap<string, Record<string, JsonValue>>,
  intents: readonly Intent[],
): string {
  const paragraphs = content.flatMap((part) => {
    if (part.type !== 'tool-result') return [];
    const { output } = part;
    const text =
      output.type === 'text' || output.type === 'error-text'
        ? output.value
        : JSON.stringify('value' in output ? output.value : output);
    if (output.type === 'error-text' || output.type === 'error-json') {
      return [`Sorry, that didn’t work: ${sentence(firstLine(text))}`];
    }
    const intent = intents.find((candidate) => candidate.tool === part.toolName);
    if (!intent) return [sentence(firstLine(text))];
    return [intent.answer({ args: args.get(part.toolCallId) ?? {}, text })];
  });
  return paragraphs.join('\n\n');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** `text` ending as a sentence does: "… 3 rows." rather than "… 3 rows" or "… 3 rows:". */
function sentence(text: string): string {
  const trimmed = text.replace(/[\s:;,]+$/, '').trim();
  if (trimmed === '') return 'Done.';
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function introduction(intents: readonly Intent[], available: ReadonlySet<string>): string {
  const examples = intents
    .filter((intent) => available.has(intent.tool))
    .map((intent) => `- “${intent.example}”`);
  return [
    'I am the **offline demo model** built into Quanta: I run inside this server, with no key ' +
      'and no network, so I only understand a few requests.',
    examples.length > 0 ? `Try one of these to see a tool at work:\n\n${examples.join('\n')}` : '',
    CONFIGURE,
  ]
    .filter(Boolean)
    .join('\n\n');
}

function streamReply(
  reply: Reply,
  { prompt, abortSignal }: LanguageModelV3CallOptions,
  delayMs: number,
): ReadableStream<LanguageModelV3StreamPart> {
  // Words with their following space: small deltas, at a pace a reader can follow.
  const deltas = reply.text.match(/\S+\s*|\s+/g) ?? [];
  return new ReadableStream<LanguageModelV3StreamPart>({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 'text' });
      for (const delta of deltas) {
        if (abortSignal?.aborted) break;
        if (delayMs > 0) await sleep(delayMs);
        controller.enqueue({ type: 'text-delta', id: 'text', delta });
      }
      controller.enqueue({ type: 'text-end', id: 'text' });
      reply.calls.forEach((call) => {
        controller.enqueue({
          type: 'tool-call',
          toolCallId: `call_${newId()}`,
          toolName: call.tool,
          input: JSON.stringify(call.args),
        });
      });
      controller.enqueue({
        type: 'finish',
        finishReason: { unified: reply.calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
        usage: usage(JSON.stringify(prompt).length, reply.text.length),
      });
      controller.close();
    },
  });
}

/** Roughly four characters a token, as the real tokenisers average on English. */
function usage(inputChars: number, outputChars: number): LanguageModelV3Usage {
  const input = Math.ceil(inputChars / 4);
  const output = Math.ceil(outputChars / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
