import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';

/** A model that went silent; the turn ends with this message. */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError';
  constructor(readonly ms: number) {
    super(`The model sent nothing for ${formatSeconds(ms)}, so the turn was ended.`);
  }
}

/**
 * Fails a model call that goes silent for `ms` — before it answers, or between two parts of its
 * stream — and cancels the request behind it. A server that accepts the connection, or sends a
 * first chunk, and then hangs would otherwise hold the turn (and the session's one turn slot)
 * until the connection dies. The clock runs only while a part is awaited, so a slow reader of
 * the stream does not count against the model.
 */
export function stallTimeout(ms: number): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapStream({ model, params }) {
      const timeout = new AbortController();
      const abortSignal = params.abortSignal
        ? AbortSignal.any([params.abortSignal, timeout.signal])
        : timeout.signal;
      const result = await within(ms, timeout, model.doStream({ ...params, abortSignal }));
      const reader = result.stream.getReader();
      // One clock for the whole stream, restarted at every read, rather than a timer and an
      // abort listener for each part: it fails only a read that is waiting when it rings.
      let failRead: ((error: unknown) => void) | undefined;
      const clock = setTimeout(() => {
        if (!failRead) return;
        const error = new ModelTimeoutError(ms);
        timeout.abort(error);
        failRead(error);
      }, ms);
      const read = () =>
        new Promise<ReadableStreamReadResult<LanguageModelV3StreamPart>>((resolve, reject) => {
          failRead = reject;
          clock.refresh();
          reader.read().then(resolve, reject);
        });
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          let next: ReadableStreamReadResult<LanguageModelV3StreamPart>;
          try {
            next = await read();
          } catch (error) {
            clearTimeout(clock);
            if (timeout.signal.aborted) void reader.cancel(error).catch(() => {});
            throw error;
          } finally {
            failRead = undefined;
          }
          if (next.done) {
            clearTimeout(clock);
            controller.close();
          } else {
            controller.enqueue(next.value);
          }
        },
        cancel(reason) {
          clearTimeout(clock);
          return reader.cancel(reason);
        },
      });
      return { ...result, stream };
    },
  };
}

/** `promise`, unless `ms` pass first: then `timeout` aborts with a ModelTimeoutError. */
function within<T>(ms: number, timeout: AbortController, promise: PromiseLike<T>): Promise<T> {
  const { signal } = timeout;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => timeout.abort(new ModelTimeoutError(ms)), ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    promise.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
