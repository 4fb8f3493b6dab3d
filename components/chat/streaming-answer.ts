import type { UIMessageChunk } from 'ai';
import { parse as parsePartialJson } from 'partial-json';
import {
  isStaticToolPart,
  isToolPart,
  type MessageMetadata,
  type QuantaDataParts,
  type QuantaMessage,
  type QuantaToolPart,
  toolNameOf,
} from '@/lib/protocol';

export type AnswerChunk = UIMessageChunk<MessageMetadata, QuantaDataParts>;

type Part = QuantaMessage['parts'][number];
/** A part whose words stream in: the answer's text, or the model's reasoning. */
type Written = Extract<Part, { type: 'text' | 'reasoning' }>;
type ToolState = QuantaToolPart['state'];

/**
 * What a chunk did to the answer: changed what is shown (`content`), only its id or metadata
 * (`quiet`), or nothing.
 */
export type ChunkEffect = 'content' | 'quiet' | 'none';

/** A tool call whose arguments are still streaming: the text so far. */
type PartialCall = {
  text: string;
  toolName: string;
  dynamic: boolean;
  inputEncoding?: 'text';
  title?: string;
};

/**
 * A change to a tool part, as a chunk gives it: `input` is set on every change, the rest when
 * the chunk has them.
 */
type ToolUpdate = {
  toolCallId: string;
  toolName: string;
  state: ToolState;
  input: unknown;
  rawInput?: unknown;
  output?: unknown;
  errorText?: string;
  inputEncoding?: 'text';
  title?: string;
  providerExecuted?: boolean;
  providerMetadata?: unknown;
  preliminary?: boolean;
};

/**
 * An assistant message built from a turn's stream of UI message chunks, as the AI SDK's
 * `readUIMessageStream` builds it (the server stores what the SDK builds; a test holds the two
 * equal). The page shows `message` as it grows. Quanta's server sends no files, sources or
 * tool approvals: those chunks change nothing.
 */
export class StreamingAnswer {
  message: QuantaMessage;
  private texts = new Map<string, Written>();
  private reasonings = new Map<string, Written>();
  private partialCalls = new Map<string, PartialCall>();

  constructor(id: string) {
    this.message = { id, role: 'assistant', metadata: undefined, parts: [] };
  }

  /** Applies one chunk; an `error` chunk throws its text. */
  apply(chunk: AnswerChunk): ChunkEffect {
    switch (chunk.type) {
      case 'start':
        if (chunk.messageId != null) this.message.id = chunk.messageId;
        this.mergeMetadata(chunk.messageMetadata);
        return chunk.messageId != null || chunk.messageMetadata != null ? 'quiet' : 'none';
      case 'start-step':
        this.message.parts.push({ type: 'step-start' });
        return 'none';
      case 'finish-step':
        this.texts.clear();
        this.reasonings.clear();
        return 'none';
      case 'text-start':
      case 'reasoning-start': {
        const fields = {
          text: '',
          providerMetadata: chunk.providerMetadata,
          state: 'streaming' as const,
        };
        // A reasoning part keeps its chunk's id, as the SDK's does.
        const started: Written =
          chunk.type === 'text-start'
            ? { type: 'text', ...fields }
            : { type: 'reasoning', id: chunk.id, ...fields };
        this.written(chunk.type).set(chunk.id, started);
        this.message.parts.push(started);
        return 'content';
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const part = open(this.written(chunk.type), chunk.id, chunk.type);
        part.text += chunk.delta;
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        return 'content';
      }
      case 'text-end':
      case 'reasoning-end': {
        const part = open(this.written(chunk.type), chunk.id, chunk.type);
        part.state = 'done';
        part.providerMetadata = chunk.providerMetadata ?? part.providerMetadata;
        this.written(chunk.type).delete(chunk.id);
        return 'content';
      }
      case 'tool-input-start': {
        const call: PartialCall = {
          text: '',
          toolName: chunk.toolName,
          dynamic: chunk.dynamic === true,
          inputEncoding: textEncoding(chunk),
          title: chunk.title,
        };
        this.partialCalls.set(chunk.toolCallId, call);
        this.updateTool(call.dynamic, {
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          state: 'input-streaming',
          input: undefined,
          inputEncoding: call.inputEncoding,
          title: chunk.title,
          providerExecuted: chunk.providerExecuted,
          providerMetadata: chunk.providerMetadata,
        });
        return 'content';
      }
      case 'tool-input-delta': {
        const call = this.partialCalls.get(chunk.toolCallId);
        if (!call) throw missing(chunk.type, chunk.toolCallId);
        call.text += chunk.inputTextDelta;
        this.updateTool(call.dynamic, {
          toolCallId: chunk.toolCallId,
          toolName: call.toolName,
          state: 'input-streaming',
          input: call.inputEncoding === 'text' ? call.text : partialJson(call.text),
          rawInput: call.text,
          inputEncoding: call.inputEncoding,
          title: call.title,
        });
        return 'content';
      }
      case 'tool-input-available':
        this.updateTool(chunk.dynamic === true, {
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          state: 'input-available',
          input: chunk.input,
          title: chunk.title,
          providerExecuted: chunk.providerExecuted,
          providerMetadata: chunk.providerMetadata,
        });
        return 'content';
      case 'tool-input-error': {
        const existing = this.stepParts().find(
          (part): part is QuantaToolPart =>
            isToolPart(part) && part.toolCallId === chunk.toolCallId,
        );
        const dynamic = existing ? existing.type === 'dynamic-tool' : chunk.dynamic === true;
        this.updateTool(dynamic, {
          toolCallId: chunk.toolCallId,
          toolName: chunk.toolName,
          state: 'output-error',
          // A call of a known tool keeps the arguments it could not take as raw input only.
          input: dynamic ? chunk.input : undefined,
          rawInput: dynamic ? undefined : chunk.input,
          errorText: chunk.errorText,
          providerExecuted: chunk.providerExecuted,
          providerMetadata: chunk.providerMetadata,
        });
        return 'content';
      }
      case 'tool-output-available':
      case 'tool-output-error': {
        const call = this.toolCall(chunk.toolCallId);
        const failed = chunk.type === 'tool-output-error';
        this.updateTool(
          call.type === 'dynamic-tool',
          {
            toolCallId: chunk.toolCallId,
            toolName: toolNameOf(call),
            state: failed ? 'output-error' : 'output-available',
            input: call.input,
            rawInput: failed && call.type !== 'dynamic-tool' ? rawInputOf(call) : undefined,
            output: failed ? undefined : chunk.output,
            errorText: failed ? chunk.errorText : undefined,
            preliminary: failed ? undefined : chunk.preliminary,
            title: call.title,
            providerExecuted: chunk.providerExecuted,
            providerMetadata: chunk.providerMetadata,
          },
          call,
        );
        return 'content';
      }
      case 'message-metadata':
      case 'finish':
        this.mergeMetadata(chunk.messageMetadata);
        return chunk.messageMetadata != null ? 'content' : 'none';
      case 'error':
        throw new Error(chunk.errorText);
      case 'data-summary': {
        if (chunk.transient) return 'none';
        const existing =
          chunk.id == null
            ? undefined
            : this.message.parts.find(
                (part): part is Extract<Part, { type: 'data-summary' }> =>
                  part.type === chunk.type && part.id === chunk.id,
              );
        if (existing) existing.data = chunk.data;
        // A copy: the part changes when a later chunk with its id comes.
        else this.message.parts.push({ ...chunk });
        return 'content';
      }
      default:
        return 'none';
    }
  }

  /** The parts of a chunk's kind being written now, by the chunk's id. */
  private written(type: `${'text' | 'reasoning'}-${string}`): Map<string, Written> {
    return type.startsWith('text') ? this.texts : this.reasonings;
  }

  private mergeMetadata(metadata: MessageMetadata | undefined) {
    if (metadata == null) return;
    this.message.metadata = this.message.metadata
      ? (merged(this.message.metadata, metadata) as MessageMetadata)
      : metadata;
  }

  /** The parts since the last step began. */
  private stepParts(): Part[] {
    const parts = this.message.parts;
    const start = parts.findLastIndex((part) => part.type === 'step-start');
    return parts.slice(start + 1);
  }

  /** The tool call a result belongs to: in this step, else the latest before it. */
  private toolCall(toolCallId: string): QuantaToolPart {
    const has = (part: Part): part is QuantaToolPart =>
      isToolPart(part) && part.toolCallId === toolCallId;
    const call = this.stepParts().find(has) ?? this.message.parts.findLast(has);
    if (!call) throw missing('tool-output', toolCallId);
    return call;
  }

  private updateTool(dynamic: boolean, update: ToolUpdate, known?: QuantaToolPart) {
    const part =
      known ??
      this.stepParts().find(
        (candidate) =>
          (dynamic ? candidate.type === 'dynamic-tool' : isStaticToolPart(candidate)) &&
          (candidate as QuantaToolPart).toolCallId === update.toolCallId,
      );
    const metadataKey =
      update.state === 'output-available' || update.state === 'output-error'
        ? 'resultProviderMetadata'
        : 'callProviderMetadata';
    if (!part) {
      this.message.parts.push({
        ...(dynamic
          ? { type: 'dynamic-tool', toolName: update.toolName }
          : { type: `tool-${update.toolName}` }),
        toolCallId: update.toolCallId,
        state: update.state,
        title: update.title,
        input: update.input,
        ...(update.inputEncoding ? { inputEncoding: update.inputEncoding } : {}),
        output: update.output,
        rawInput: update.rawInput,
        errorText: update.errorText,
        providerExecuted: update.providerExecuted,
        preliminary: update.preliminary,
        ...(update.providerMetadata != null ? { [metadataKey]: update.providerMetadata } : {}),
      } as QuantaToolPart);
      return;
    }
    // The part changes state in place, as the SDK's does: its fields differ by state.
    const fields = part as Record<string, unknown>;
    fields.state = update.state;
    if (dynamic) fields.toolName = update.toolName;
    else fields.type = `tool-${update.toolName}`;
    fields.input = update.input;
    fields.output = update.output;
    fields.errorText = update.errorText;
    fields.rawInput = update.rawInput;
    if (update.inputEncoding) fields.inputEncoding = update.inputEncoding;
    else delete fields.inputEncoding;
    fields.preliminary = update.preliminary;
    if (update.title !== undefined) fields.title = update.title;
    fields.providerExecuted = update.providerExecuted ?? fields.providerExecuted;
    if (update.providerMetadata != null) fields[metadataKey] = update.providerMetadata;
  }
}

function open<T>(parts: Map<string, T>, id: string, type: string): T {
  const part = parts.get(id);
  if (!part) throw missing(type, id);
  return part;
}

function missing(type: string, id: string): Error {
  return new Error(`The answer's stream sent ${type} for "${id}", which it never started.`);
}

function textEncoding(chunk: { inputEncoding?: string }): 'text' | undefined {
  return chunk.inputEncoding === 'text' ? 'text' : undefined;
}

function rawInputOf(part: QuantaToolPart): unknown {
  return (part as { rawInput?: unknown }).rawInput;
}

/** As much of a tool's arguments as has arrived, or undefined while none can be read. */
function partialJson(text: string): unknown {
  try {
    return parsePartialJson(text);
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `base` with `update`'s defined values over it, objects merged key by key, as the SDK merges
 * metadata.
 */
function merged(base: Record<string, unknown>, update: Record<string, unknown>) {
  const result = { ...base };
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    const under = base[key];
    result[key] = isPlainObject(value) && isPlainObject(under) ? merged(under, value) : value;
  }
  return result;
}
