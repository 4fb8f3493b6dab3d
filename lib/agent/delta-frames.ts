import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';

/** Deltas are passed on at most about this often: smooth to read, a fraction of the chunks. */
const FRAME_MS = 30;

type Part = LanguageModelV3StreamPart;
type Delta = Extract<Part, { type: 'text-delta' | 'reasoning-delta' }>;

// A delta with provider metadata (a reasoning signature, say) is passed on as it is: joining
// it to others would lose or misplace what it carries.
const isPlainDelta = (part: Part): part is Delta =>
  (part.type === 'text-delta' || part.type === 'reasoning-delta') &&
  part.providerMetadata === undefined;

/**
 * `source` with its text and reasoning deltas joined into frames: a delta that comes while no
 * frame is open goes out at once (the first words are not held back), the ones that follow
 * within `frameMs` go out together when the frame closes. Any other chunk first sends what
 * waits, so the order and the text are those of the model; only the number of chunks changes.
 * When `source` fails (a Stop aborts the request) or the reader cancels, the frame's timer is
 * cleared and what waits is dropped: it was never shown.
 */
export function deltaFrames(
  source: ReadableStream<Part>,
  frameMs = FRAME_MS,
): ReadableStream<Part> {
  const reader = source.getReader();
  let waiting: Delta | undefined;
  let frame: NodeJS.Timeout | undefined;
  let controller: ReadableStreamDefaultController<Part>;
  let cancelled = false;

  const sendWaiting = () => {
    if (waiting) controller.enqueue(waiting);
    waiting = undefined;
  };
  const openFrame = () => {
    frame = setTimeout(() => {
      frame = undefined;
      if (!waiting) return;
      sendWaiting();
      openFrame();
    }, frameMs);
  };
  const stop = () => {
    clearTimeout(frame);
    frame = undefined;
  };

  return new ReadableStream<Part>({
    start(streamController) {
      controller = streamController;
    },
    // Reads until it has passed a chunk on: one that only joined the waiting delta asks for
    // no new pull, so returning then would leave the stream waiting for the frame's end.
    async pull() {
      for (;;) {
        let read: ReadableStreamReadResult<Part>;
        try {
          read = await reader.read();
        } catch (error) {
          if (cancelled) return;
          stop();
          waiting = undefined;
          controller.error(error);
          return;
        }
        if (cancelled) return;
        if (read.done) {
          stop();
          sendWaiting();
          controller.close();
          return;
        }
        const chunk = read.value;
        if (!isPlainDelta(chunk)) {
          sendWaiting();
          controller.enqueue(chunk);
          return;
        }
        if (!frame) {
          controller.enqueue(chunk);
          openFrame();
          return;
        }
        if (waiting && waiting.type === chunk.type && waiting.id === chunk.id) {
          waiting.delta += chunk.delta;
        } else {
          sendWaiting();
          // A copy of its own, so the next deltas join it in place: no new chunk per token.
          waiting = { ...chunk };
        }
      }
    },
    cancel(reason) {
      cancelled = true;
      stop();
      waiting = undefined;
      return reader.cancel(reason);
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
      return { ...result, stream: deltaFrames(result.stream, frameMs) };
    },
  };
}
