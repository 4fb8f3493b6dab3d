import type { UIMessageChunk } from 'ai';

/** A text delta of the part `t`. */
export const textDelta = (text: string): UIMessageChunk => ({
  type: 'text-delta',
  id: 't',
  delta: text,
});

/** Each chunk as its text when it is a delta, else as its type: a readable sequence to compare. */
export const chunkTexts = (chunks: UIMessageChunk[]) =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta : chunk.type));

/** Reads `count` chunks (fewer if the stream ends first), leaving the stream open. */
export async function readSome(reader: ReadableStreamDefaultReader<UIMessageChunk>, count: number) {
  const chunks: UIMessageChunk[] = [];
  while (chunks.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return chunkTexts(chunks);
}
