import type { UIMessageChunk } from 'ai';

/** Deltas are sent at most about this often: smooth to read, a fraction of the chunks. */
export const FRAME_MS = 30;

type Delta = Extract<UIMessageChunk, { type: 'text-delta' | 'reasoning-delta' }>;

const isDelta = (chunk: UIMessageChunk): chunk is Delta =>
  chunk.type === 'text-delta' || chunk.type === 'reasoning-delta';

/**
 * Joins the text and reasoning deltas of a turn into frames: a delta that comes while no frame
 * is open goes out at once (the first words are not held back), the ones that follow within
 * `frameMs` go out together when the frame closes. Any other chunk first sends what waits, so
 * the order and the text are those of the model; only the number of chunks changes, which is
 * what every reader, the log and the bus pay for.
 */
export function coalesceDeltas(
  frameMs = FRAME_MS,
): TransformStream<UIMessageChunk, UIMessageChunk> {
  let waiting: Delta | undefined;
  let frame: NodeJS.Timeout | undefined;
  let send: (chunk: UIMessageChunk) => void = () => {};

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

  return new TransformStream<UIMessageChunk, UIMessageChunk>({
    start(controller) {
      send = (chunk) => controller.enqueue(chunk);
    },
    transform(chunk) {
      if (!isDelta(chunk)) {
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
