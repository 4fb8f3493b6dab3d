import type { LanguageModelV3Middleware } from '@ai-sdk/provider';

/** Deltas are passed on at most about this often: smooth to read, a fraction of the chunks. */
export const FRAME_MS = 30;

/** A chunk of a model's stream or of a UI message stream: both carry text deltas so. */
type Chunk = { type: string };
type Delta = { type: 'text-delta' | 'reasoning-delta'; id: string; delta: string };

// A delta with provider metadata (a reasoning signature, say) is passed on as it is: joining
// it to others would lose or misplace what it carries.
const isPlainDelta = (chunk: Chunk): chunk is Delta =>
  (chunk.type === 'text-delta' || chunk.type === 'reasoning-delta') &&
  !('providerMetadata' in chunk && chunk.providerMetadata !== undefined);

/**
 * Joins the text and reasoning deltas of a stream into frames: a delta that comes while no
 * frame is open goes out at once (the first words are not held back), the ones that follow
 * within `frameMs` go out together when the frame closes. Any other chunk first sends what
 * waits, so the order and the text are those of the model; only the number of chunks changes.
 */
export function deltaFrames<T extends Chunk>(frameMs = FRAME_MS): TransformStream<T, T> {
  let waiting: (T & Delta) | undefined;
  let frame: NodeJS.Timeout | undefined;
  let send: (chunk: T) => void = () => {};

  const sendWaiting = () => {
    if (waiting) send(waiting);
    waiting = undefined;
  };
  const closeFrame = () => {
    frame = undefined;
    if (!waiting) return;
    sendWaiting();
    openFrame();
  };
  const openFrame = () => {
    frame = setTimeout(closeFrame, frameMs);
  };

  return new TransformStream<T, T>({
    start(controller) {
      send = (chunk) => controller.enqueue(chunk);
    },
    transform(chunk) {
      if (!isPlainDelta(chunk)) {
        sendWaiting();
        send(chunk);
      } else if (!frame) {
        send(chunk);
        openFrame();
      } else if (waiting && waiting.type === chunk.type && waiting.id === chunk.id) {
        waiting.delta += chunk.delta;
      } else {
        sendWaiting();
        // A copy of its own, so the next deltas join it in place: no new chunk per token.
        waiting = { ...chunk };
      }
    },
    flush() {
      clearTimeout(frame);
      sendWaiting();
    },
  });
}

/**
 * The model's stream in frames (see `deltaFrames`), as close to the provider as it goes: every
 * layer above — the other middleware, `streamText`, the UI message stream, the turn's readers,
 * its log and the bus — handles a chunk per frame rather than one per token, which is most of
 * what relaying an answer costs.
 */
export function framedDeltas(frameMs = FRAME_MS): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapStream({ doStream }) {
      const result = await doStream();
      return { ...result, stream: result.stream.pipeThrough(deltaFrames(frameMs)) };
    },
  };
}
