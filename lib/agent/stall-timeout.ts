import type { LanguageModelV3Middleware, LanguageModelV3StreamPart } from '@ai-sdk/provider';

/** A model that did not start answering in time; the turn ends with this message. */
export class ModelTimeoutError extends Error {
  override name = 'ModelTimeoutError';
  constructor(readonly ms: number) {
    super(`The model sent nothing for ${formatSeconds(ms)}, so the turn was ended.`);
  }
}

/**
 * Fails a model call whose stream has not produced its first part within `ms`, and cancels
 * the request behind it. A server that accepts the connection and then hangs would otherwise
 * hold the turn (and the session's one turn slot) forever.
 */
export function firstByteTimeout(ms: number): LanguageModelV3Middleware {
  return {
    specificationVersion: 'v3',
    async wrapStream({ model, params }) {
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new ModelTimeoutError(ms)), ms);
      const abortSignal = params.abortSignal
        ? AbortSignal.any([params.abortSignal, timeout.signal])
        : timeout.signal;
      try {
        const result = await raceAbort(model.doStream({ ...params, abortSignal }), timeout.signal);
        const reader = result.stream.getReader();
        // `stream-start` is emitted before any byte arrives, so it does not count as an answer.
        const head: LanguageModelV3StreamPart[] = [];
        for (;;) {
          const next = await raceAbort(reader.read(), timeout.signal);
          if (next.done) break;
          head.push(next.value);
          if (next.value.type !== 'stream-start') break;
        }
        return { ...result, stream: prepend(head, reader) };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function prepend<T>(head: T[], reader: ReadableStreamDefaultReader<T>): ReadableStream<T> {
  return new ReadableStream<T>({
    start(controller) {
      for (const part of head) controller.enqueue(part);
    },
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
