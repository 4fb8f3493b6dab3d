import { createHook } from 'node:async_hooks';
import { convertReadableStreamToArray } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { type PullTransformer, pullThrough } from './pull-through';

/** A source of `chunks` that records how it was let go. */
function source<T>(chunks: T[], { fail }: { fail?: Error } = {}) {
  const seen = { cancelled: undefined as unknown, reads: 0 };
  const stream = new ReadableStream<T>(
    {
      pull(controller) {
        const chunk = chunks[seen.reads++];
        if (chunk !== undefined) controller.enqueue(chunk);
        else if (fail) controller.error(fail);
        else controller.close();
      },
      cancel(reason) {
        seen.cancelled = reason ?? 'cancelled';
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

const doubling: PullTransformer<number, number> = {
  transform: (n, controller) => controller.enqueue(n * 2),
};

describe('pullThrough', () => {
  it('passes each chunk through the transform, in order, then what the flush sends', async () => {
    const { stream } = source([1, 2, 3]);
    const out = pullThrough<number, number>(stream, {
      ...doubling,
      flush: (controller) => controller.enqueue(0),
    });
    expect(await convertReadableStreamToArray(out)).toEqual([2, 4, 6, 0]);
  });

  it('reads on past chunks the transformer holds back, and reads nothing ahead', async () => {
    const { stream, seen } = source([1, 2, 3, 4]);
    let held = 0;
    const reader = pullThrough<number, number>(stream, {
      transform(n, controller) {
        held += n;
        if (n % 2 === 0) {
          controller.enqueue(held);
          held = 0;
        }
      },
    }).getReader();
    expect(seen.reads).toBe(0);
    expect(await reader.read()).toEqual({ done: false, value: 3 });
    expect(seen.reads).toBe(2);
    expect(await reader.read()).toEqual({ done: false, value: 7 });
    expect(seen.reads).toBe(4);
  });

  it('passes on what the transformer sends while its source is being read', async () => {
    let send: ((n: number) => void) | undefined;
    let reading = false;
    const slow = new ReadableStream<number>(
      {
        pull: () => {
          reading = true;
          return new Promise<void>(() => {});
        },
      },
      { highWaterMark: 0 },
    );
    const reader = pullThrough<number, number>(slow, {
      start: (controller) => {
        send = (n) => controller.enqueue(n);
      },
      transform: () => {},
    }).getReader();
    const read = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reading).toBe(true);
    send?.(5);
    expect(await read).toEqual({ done: false, value: 5 });
  });

  it('ends at a terminate and cancels the source, as a TransformStream does', async () => {
    const { stream, seen } = source([1, 2, 3]);
    const cancel = vi.fn();
    const out = pullThrough<number, number>(stream, {
      transform(n, controller) {
        if (n === 2) controller.terminate();
        else controller.enqueue(n);
      },
      cancel,
    });
    expect(await convertReadableStreamToArray(out)).toEqual([1]);
    expect(seen.cancelled).toBeInstanceOf(TypeError);
    expect(cancel).not.toHaveBeenCalled();
  });

  it('lets the source and the transformer go when its reader leaves', async () => {
    const { stream, seen } = source([1, 2, 3]);
    const cancel = vi.fn();
    const reader = pullThrough<number, number>(stream, { ...doubling, cancel }).getReader();
    await reader.read();
    await reader.cancel('left');
    await reader.cancel('again');
    expect(seen.cancelled).toBe('left');
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(cancel).toHaveBeenCalledWith('left');
  });

  it('lets the source go even when the transformer throws on cancel', async () => {
    const { stream, seen } = source([1, 2, 3]);
    const reader = pullThrough<number, number>(stream, {
      ...doubling,
      cancel: () => {
        throw new Error('cancel failed');
      },
    }).getReader();
    await reader.read();
    await expect(reader.cancel('left')).rejects.toThrow('cancel failed');
    expect(seen.cancelled).toBe('left');
  });

  it('tells the transformer nothing when its reader leaves after the end', async () => {
    const { stream } = source([1]);
    const cancel = vi.fn();
    const reader = pullThrough<number, number>(stream, {
      ...doubling,
      flush: (controller) => {
        controller.enqueue(0);
        controller.enqueue(-1);
      },
      cancel,
    }).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 2 });
    expect(await reader.read()).toEqual({ done: false, value: 0 });
    // The flush's -1 waits unread in the closed stream.
    await reader.cancel('left');
    expect(cancel).not.toHaveBeenCalled();
  });

  it('fails with its source, and tells the transformer', async () => {
    const failure = new Error('source failed');
    const { stream } = source([1], { fail: failure });
    const cancel = vi.fn();
    const reader = pullThrough<number, number>(stream, { ...doubling, cancel }).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 2 });
    await expect(reader.read()).rejects.toBe(failure);
    expect(cancel).toHaveBeenCalledWith(failure);
  });

  it('fails when the transform throws, and cancels the source', async () => {
    const failure = new Error('bad chunk');
    const { stream, seen } = source([1, 2]);
    const out = pullThrough<number, number>(stream, {
      transform: () => {
        throw failure;
      },
    });
    await expect(convertReadableStreamToArray(out)).rejects.toBe(failure);
    expect(seen.cancelled).toBe(failure);
  });

  it('fails when the flush throws', async () => {
    const failure = new Error('bad end');
    const { stream } = source([1]);
    const out = pullThrough<number, number>(stream, {
      ...doubling,
      flush: () => {
        throw failure;
      },
    });
    await expect(convertReadableStreamToArray(out)).rejects.toBe(failure);
  });

  it('costs under half the promises a chunk of a TransformStream', async () => {
    const chunks = Array.from({ length: 200 }, (_, i) => i);
    const promisesFor = async (through: (stream: ReadableStream<number>) => ReadableStream) => {
      let count = 0;
      const hook = createHook({
        init: (_id, type) => {
          if (type === 'PROMISE') count++;
        },
      }).enable();
      try {
        await convertReadableStreamToArray(through(source(chunks).stream));
      } finally {
        hook.disable();
      }
      return count;
    };
    const bare = await promisesFor((stream) => stream);
    const piped = await promisesFor((stream) => stream.pipeThrough(new TransformStream(doubling)));
    const pulled = await promisesFor((stream) => pullThrough(stream, doubling));
    expect(pulled - bare).toBeLessThan((piped - bare) / 2);
  });
});
