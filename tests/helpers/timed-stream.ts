import { vi } from 'vitest';

// For stream transforms that depend on time (frames): run under fake timers, a test writes
// chunks at the times it chooses and reads what came out, and when.

/** `transform` over a stream the test writes: its writer, what came out and when, a clock. */
export function timedStream<In, Out>(
  transform: (source: ReadableStream<In>) => ReadableStream<Out>,
) {
  const source = new TransformStream<In, In>();
  const reader = transform(source.readable).getReader();
  const out: [number, Out][] = [];
  const start = Date.now();
  const reading = (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      out.push([Date.now() - start, read.value]);
    }
  })();
  /** Advances the fake clock to `ms` after the start. */
  const at = (ms: number) => vi.advanceTimersByTimeAsync(ms - (Date.now() - start));
  return { writer: source.writable.getWriter(), reader, reading, out, at };
}

/** Writes `input` through `transform` at the given times, ends it at `endAt`; what came out. */
export async function timedRun<In, Out>(
  transform: (source: ReadableStream<In>) => ReadableStream<Out>,
  input: [at: number, chunk: In][],
  endAt: number,
): Promise<[number, Out][]> {
  const { writer, reading, out, at } = timedStream(transform);
  for (const [ms, chunk] of input) {
    await at(ms);
    await writer.write(chunk);
  }
  await at(endAt);
  await writer.close();
  await reading;
  return out;
}
