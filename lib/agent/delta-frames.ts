import type { Readable } from 'node:stream';
import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { pullThrough } from '../streams/pull-through';

/** Deltas are passed on at most about this often: smooth to read, a fraction of the chunks. */
export const FRAME_MS = 30;

/** What a framer needs to know of its chunks (see `framed`). */
export type FrameRules<In, Item, Out> = {
  /** The chunk as a piece of text a frame may hold, or undefined to pass it on as it is. */
  item(chunk: In): Item | undefined;
  /** Whether `next` continues the text of `last`: same message, same kind of text. */
  continues(last: Item, next: Item): boolean;
  /** The one chunk sent for the items a frame gathered, in order (one or more). */
  merge(items: Item[]): Out;
  /** A chunk that is no frame's, passed on. */
  pass(chunk: In): Out;
};

/** A framer fed one chunk at a time (see `framed`). */
type FrameJoiner<In> = {
  add(chunk: In): void;
  /** Sends what waits: the source has ended. */
  end(): void;
  /** Drops what waits: the source failed or its reader left, so it was never shown. */
  drop(): void;
};

/**
 * Joins the pieces of text it is given into frames, handing `send` each chunk to pass on: a
 * piece that comes while no frame is open goes out at once (the first words are not held
 * back), the ones that follow within `frameMs` go out together when the frame closes. Any
 * other chunk first sends what waits, so the order and the text are the source's; only the
 * number of chunks changes.
 */
function frameJoiner<In, Item, Out>(
  rules: FrameRules<In, Item, Out>,
  send: (chunk: Out) => void,
  frameMs: number,
): FrameJoiner<In> {
  let waiting: Item[] = [];
  let frame: NodeJS.Timeout | undefined;

  const sendWaiting = () => {
    if (waiting.length > 0) send(rules.merge(waiting));
    waiting = [];
  };
  const openFrame = () => {
    frame = setTimeout(() => {
      frame = undefined;
      if (waiting.length === 0) return;
      sendWaiting();
      openFrame();
    }, frameMs);
  };
  const closeFrame = () => {
    clearTimeout(frame);
    frame = undefined;
  };

  return {
    add(chunk) {
      const item = rules.item(chunk);
      if (item === undefined) {
        sendWaiting();
        send(rules.pass(chunk));
        return;
      }
      if (!frame) {
        send(rules.merge([item]));
        openFrame();
        return;
      }
      const last = waiting.at(-1);
      if (last !== undefined && !rules.continues(last, item)) sendWaiting();
      waiting.push(item);
    },
    end() {
      closeFrame();
      sendWaiting();
    },
    drop() {
      closeFrame();
      waiting = [];
    },
  };
}

/**
 * `source` with its pieces of text joined into frames (see `frameJoiner`). When `source` fails
 * (a Stop aborts the request), a rule throws (the stream then fails and `source` is cancelled)
 * or the reader cancels, the frame's timer is cleared and what waits is dropped.
 */
export function framed<In, Item, Out>(
  source: ReadableStream<In>,
  rules: FrameRules<In, Item, Out>,
  frameMs = FRAME_MS,
): ReadableStream<Out> {
  let joiner: FrameJoiner<In>;
  return pullThrough<In, Out>(source, {
    start(controller) {
      joiner = frameJoiner(rules, controller.enqueue, frameMs);
    },
    transform: (chunk) => joiner.add(chunk),
    flush: () => joiner.end(),
    cancel: () => joiner.drop(),
  });
}

/**
 * `framed` for a Node stream, whose chunks come by events rather than reads: nothing is spent
 * on promises for a chunk, only for a frame the reader takes. `unpack` gives the chunks each
 * event holds, none or many (the server-sent events in a network read), handled as they come
 * with no stream between them. The source is paused while the reader has a frame it has not
 * taken, and destroyed when the reader leaves or `unpack` throws.
 */
export function framedReadable<Raw, In, Item, Out>(
  source: Readable,
  unpack: (raw: Raw, add: (chunk: In) => void) => void,
  rules: FrameRules<In, Item, Out>,
  frameMs = FRAME_MS,
): ReadableStream<Out> {
  let joiner: FrameJoiner<In>;
  // Once the stream has ended, failed or lost its reader, events the source had already
  // scheduled (an end after a destroy) must not reach its controller, which would throw.
  let settled = false;
  return new ReadableStream<Out>({
    start(controller) {
      const fail = (error: unknown) => {
        settled = true;
        joiner.drop();
        controller.error(error);
        source.destroy();
      };
      joiner = frameJoiner(
        rules,
        (chunk) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        },
        frameMs,
      );
      source.on('data', (raw: Raw) => {
        if (settled) return;
        try {
          unpack(raw, joiner.add);
        } catch (error) {
          fail(error);
        }
      });
      source.once('end', () => {
        if (settled) return;
        settled = true;
        joiner.end();
        controller.close();
      });
      source.once('error', (error) => {
        if (!settled) fail(error);
      });
    },
    pull() {
      source.resume();
    },
    cancel() {
      settled = true;
      joiner.drop();
      source.destroy();
    },
  });
}

type Part = LanguageModelV3StreamPart;
type Delta = Extract<Part, { type: 'text-delta' | 'reasoning-delta' }>;

const deltaRules: FrameRules<Part, Delta, Part> = {
  // A delta with provider metadata (a reasoning signature, say) is passed on as it is: joining
  // it to others would lose or misplace what it carries. An empty one opens no frame.
  item: (part) =>
    (part.type === 'text-delta' || part.type === 'reasoning-delta') &&
    part.providerMetadata === undefined &&
    part.delta !== ''
      ? part
      : undefined,
  continues: (last, next) => last.type === next.type && last.id === next.id,
  merge: (deltas) =>
    deltas.length === 1
      ? (deltas[0] as Delta)
      : { ...(deltas[0] as Delta), delta: deltas.map(({ delta }) => delta).join('') },
  pass: (part) => part,
};

/** A model's stream with its text and reasoning deltas joined into frames (see `framed`). */
export function deltaFrames(
  source: ReadableStream<Part>,
  frameMs = FRAME_MS,
): ReadableStream<Part> {
  return framed(source, deltaRules, frameMs);
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
