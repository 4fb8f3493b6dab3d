import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { settledParts, storedForm } from '../agent/run-turn';
import type { QuantaMessage } from '../protocol';

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
