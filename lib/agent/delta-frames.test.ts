import { PassThrough, Readable } from 'node:stream';
import type { LanguageModelV3StreamPart as Part } from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { timedRun, timedStream } from '@/tests/helpers/timed-stream';
import { deltaFrames, type FrameRules, framed as framedBy, framedReadable } from './delta-frames';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const text = (delta: string, id = 't'): Part => ({ type: 'text-delta', id, delta });

const frames = (source: ReadableStream<Part>) => deltaFrames(source, 30);
const framed = () => timedStream(frames);
const run = (input: [at: number, chunk: Part][], endAt: number) => timedRun(frames, input, endAt);

it('sends the first delta at once and joins the ones that follow into 30 ms frames', async () => {
  const out = await run(
    [
      [0, text('The ')],
      [5, text('quick ')],
      [10, text('brown ')],
      [40, text('fox ')],
      [45, text('jumps.')],
    ],
    100,
  );
  expect(out).toEqual([
    [0, text('The ')],
    [30, text('quick brown ')],
    [60, text('fox jumps.')],
  ]);
});

it('opens no frame for an empty delta: the next is sent at once', async () => {
  const out = await run(
    [
      [0, text('')],
      [5, text('Hi')],
    ],
    50,
  );
  expect(out).toEqual([
    [0, text('')],
    [5, text('Hi')],
  ]);
});

it('opens a new frame for a delta after a quiet spell, sending it at once', async () => {
  const out = await run(
    [
      [0, text('a')],
      [100, text('b')],
    ],
    200,
  );
  expect(out).toEqual([
    [0, text('a')],
    [100, text('b')],
  ]);
});

it('keeps the order: another chunk, another part or the end first sends what waits', async () => {
  const reasoning: Part = { type: 'reasoning-delta', id: 'r', delta: 'hmm' };
  const end: Part = { type: 'text-end', id: 't' };
  const out = await run(
    [
      [0, text('a')],
      [5, text('b')],
      [6, reasoning],
      [7, text('c')],
      [8, end],
      [9, text('x', 'u')],
      [10, text('y', 'u')],
    ],
    10,
  );
  expect(out.map(([, chunk]) => chunk)).toEqual([
    text('a'),
    text('b'),
    reasoning,
    text('c'),
    end,
    // Within the frame still open: joined, and sent by the end of the stream, not held for it.
    text('xy', 'u'),
  ]);
  expect(out.at(-1)?.[0]).toBe(10);
});

it('passes a delta with provider metadata on as it is, after what waits', async () => {
  const signed: Part = {
    type: 'reasoning-delta',
    id: 'r',
    delta: '',
    providerMetadata: { anthropic: { signature: 'sig' } },
  };
  const reasoning = (delta: string): Part => ({
    type: 'reasoning-delta',
    id: 'r',
    delta,
  });
  const out = await run(
    [
      [0, reasoning('a')],
      [5, reasoning('b')],
      [6, signed],
      [7, reasoning('c')],
    ],
    50,
  );
  expect(out.map(([, chunk]) => chunk)).toEqual([
    reasoning('a'),
    reasoning('b'),
    signed,
    reasoning('c'),
  ]);
});

it('ends with the source when it fails mid-frame: what waits is dropped, no timer fires', async () => {
  const { writer, reading, out, at } = framed();
  await writer.write(text('a'));
  await at(5);
  await writer.write(text('b'));
  // A Stop aborts the model's request: its stream errors.
  await writer.abort(new Error('aborted'));
  await expect(reading).rejects.toThrow('aborted');
  // The frame's end passes without an enqueue into the errored stream.
  await at(100);
  expect(out.map(([, chunk]) => chunk)).toEqual([text('a')]);
  expect(vi.getTimerCount()).toBe(0);
});

it('cancels the source when its reader cancels, and clears the frame', async () => {
  const cancelled = vi.fn();
  const source = new ReadableStream<Part>({
    start(controller) {
      controller.enqueue(text('a'));
      controller.enqueue(text('b'));
    },
    cancel: cancelled,
  });
  const reader = deltaFrames(source, 30).getReader();
  expect((await reader.read()).value).toEqual(text('a'));
  await vi.advanceTimersByTimeAsync(0);
  await reader.cancel('stall');
  expect(cancelled).toHaveBeenCalledWith('stall');
  expect(vi.getTimerCount()).toBe(0);
});

it('fails the stream on a chunk its rules cannot take, leaving no frame to write to it', async () => {
  const rules: FrameRules<string, string, string> = {
    item: (chunk) => {
      if (chunk === 'bad') throw new Error('garbled');
      return chunk;
    },
    continues: () => true,
    merge: (items) => items.join(''),
    pass: (chunk) => chunk,
  };
  const cancel = vi.fn();
  const source = new ReadableStream<string>({
    start(controller) {
      for (const chunk of ['a', 'b', 'bad']) controller.enqueue(chunk);
    },
    cancel,
  });
  const reader = framedBy(source, rules, 30).getReader();
  expect(await reader.read()).toEqual({ done: false, value: 'a' });
  await expect(reader.read()).rejects.toThrow('garbled');
  // The frame 'b' joined is dropped with its timer, and the source is let go.
  expect(vi.getTimerCount()).toBe(0);
  expect(cancel).toHaveBeenCalledWith(new Error('garbled'));
});

describe('framedReadable', () => {
  const words: FrameRules<string, string, string> = {
    item: (word) => (word === '!' ? undefined : word),
    continues: () => true,
    merge: (items) => items.join(''),
    pass: (chunk) => chunk,
  };
  /** A Node stream of text, each chunk its words, framed; `unpack` throws on 'garbled'. */
  const framedWords = () => {
    const source = new PassThrough({ encoding: 'utf8' });
    const unpack = (chunk: string, add: (word: string) => void) => {
      if (chunk === 'garbled') throw new Error('garbled');
      for (const word of chunk.split(' ')) add(word);
    };
    return { source, reader: framedReadable(source, unpack, words, 30).getReader() };
  };

  it('frames the chunks a Node stream gives by its events, as framed does a stream it reads', async () => {
    const { source, reader } = framedWords();
    source.write('a b');
    await vi.advanceTimersByTimeAsync(5);
    source.write('c ! d');
    source.end('e');
    await vi.advanceTimersByTimeAsync(5);
    const read: unknown[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read())
      read.push(next.value);
    // 'a' at once; 'b' and 'c' wait for the frame until '!' passes; 'd' and 'e' at the end.
    expect(read).toEqual(['a', 'bc', '!', 'de']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('pauses the source while a frame waits to be read, and resumes it at the read', async () => {
    const { source, reader } = framedWords();
    source.write('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(source.isPaused()).toBe(true);
    expect(await reader.read()).toEqual({ done: false, value: 'a' });
    expect(source.isPaused()).toBe(false);
    source.end();
  });

  it('fails with the source mid-frame: what waits is dropped, no timer left', async () => {
    const { source, reader } = framedWords();
    source.write('a b');
    await vi.advanceTimersByTimeAsync(5);
    expect(await reader.read()).toEqual({ done: false, value: 'a' });
    source.destroy(new Error('aborted'));
    await expect(reader.read()).rejects.toThrow('aborted');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails on a chunk it cannot unpack, and lets the source go', async () => {
    const { source, reader } = framedWords();
    source.write('garbled');
    await expect(reader.read()).rejects.toThrow('garbled');
    expect(source.destroyed).toBe(true);
  });

  it('fails on the last chunk it cannot unpack, with the end already on its way', async () => {
    const source = new Readable({ read() {} });
    source.push('a');
    source.push('garbled');
    source.push(null);
    const reader = framedReadable(
      source,
      (chunk: Buffer, add: (word: string) => void) => {
        if (String(chunk) === 'garbled') throw new Error('garbled');
        add(String(chunk));
      },
      words,
      30,
    ).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 'a' });
    await expect(reader.read()).rejects.toThrow('garbled');
    // The end the source had scheduled reaches no controller (which would throw, uncaught).
    await vi.advanceTimersByTimeAsync(10);
  });

  it('lets the source go when its reader leaves as the last chunk comes, the end on its way', async () => {
    const { source, reader } = framedWords();
    source.write('a');
    source.end('b');
    await vi.advanceTimersByTimeAsync(5);
    // Paused on 'a' with 'b' and the end held; reading 'a' resumes it, and the reader leaves
    // as 'b' comes, after the source has scheduled its end.
    source.on('data', () => void reader.cancel('enough'));
    expect(await reader.read()).toEqual({ done: false, value: 'a' });
    await vi.advanceTimersByTimeAsync(50);
    expect(source.destroyed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('destroys the source when its reader leaves, and clears the frame', async () => {
    const { source, reader } = framedWords();
    source.write('a b');
    await vi.advanceTimersByTimeAsync(5);
    await reader.cancel('stall');
    expect(source.destroyed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
