import { isToolUIPart, readUIMessageStream, type UIMessageChunk } from 'ai';
import type { QuantaMessage } from '../protocol';
import { withCappedInput } from './tool-input-cap';

// A turn's assistant message: built from the turn's chunks, as a client reading them holds it,
// and settled into the form it is stored in.

/**
 * Adjacent deltas of one text or reasoning part, joined: what the part ends up holding is the
 * same, and there are a handful of chunks per part instead of one per token.
 */
export function joinDeltas(chunks: readonly UIMessageChunk[]): UIMessageChunk[] {
  const joined: UIMessageChunk[] = [];
  for (const chunk of chunks) {
    const last = joined.at(-1);
    if (
      (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') &&
      last?.type === chunk.type &&
      last.id === chunk.id
    ) {
      joined[joined.length - 1] = { ...last, delta: last.delta + chunk.delta };
    } else {
      joined.push(chunk);
    }
  }
  return joined;
}

/**
 * The assistant message a turn's chunks make, as a client reading them would hold it; undefined
 * when they hold none (the turn died before it began).
 */
export async function buildMessage(
  chunks: readonly UIMessageChunk[],
): Promise<QuantaMessage | undefined> {
  const source = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of joinDeltas(chunks)) controller.enqueue(chunk);
      // The SDK hands out a copy only after a chunk that shows something: a step just begun
      // (its `step-start` part) would be missing. Empty metadata changes nothing and shows it.
      controller.enqueue({ type: 'message-metadata', messageMetadata: {} });
      controller.close();
    },
  });
  let message: QuantaMessage | undefined;
  for await (const snapshot of readUIMessageStream<QuantaMessage>({ stream: source })) {
    message = snapshot;
  }
  return message?.id ? message : undefined;
}

/**
 * What a turn whose server died leaves, from its logged chunks: the message as stored, its
 * unfinished tool calls settled, marked interrupted; undefined when nothing was logged.
 */
export async function interruptedMessage(
  chunks: readonly UIMessageChunk[],
  maxToolInputBytes: number,
): Promise<QuantaMessage | undefined> {
  const message = await buildMessage(chunks);
  if (!message) return undefined;
  return storedForm(
    {
      ...message,
      parts: settledParts(message.parts),
      metadata: { ...message.metadata, status: 'interrupted' },
    },
    maxToolInputBytes,
  );
}

/** The message as it is stored: tool call arguments over the cap are not kept (see
 * `withCappedInput`). */
export function storedForm(message: QuantaMessage, maxToolInputBytes: number): QuantaMessage {
  return {
    ...message,
    parts: message.parts.map((part) => withCappedInput(part, maxToolInputBytes)),
  };
}

/** The parts of a message its turn's end cut short, settled; a summary it never wrote is left out. */
export function settledParts(parts: QuantaMessage['parts']): QuantaMessage['parts'] {
  return parts
    .filter((part) => !(part.type === 'data-summary' && part.data.status === 'summarising'))
    .map(settled);
}

/**
 * A part the turn's end cut short (a stop, a failure, the answer budget, a dead server) will
 * never finish: its text is stored done, so it is not shown as still streaming, and a tool call,
 * which will never get a result, as failed, so its card does not spin for ever.
 */
function settled(part: QuantaMessage['parts'][number]): QuantaMessage['parts'][number] {
  if ((part.type === 'text' || part.type === 'reasoning') && part.state === 'streaming') {
    return { ...part, state: 'done' };
  }
  if (
    !isToolUIPart(part) ||
    (part.state !== 'input-streaming' && part.state !== 'input-available')
  ) {
    return part;
  }
  // The text of arguments cut off mid-way is not kept: what parsed of them is.
  const { rawInput: _cut, ...call } = part as typeof part & { rawInput?: unknown };
  return {
    ...call,
    state: 'output-error',
    input: part.input ?? {},
    errorText: 'The turn ended before this call finished.',
  };
}
