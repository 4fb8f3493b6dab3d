import type { UIMessageChunk } from 'ai';
import { expect, it } from 'vitest';
import { textDelta as delta, readSome } from '@/tests/helpers/turn-chunks';
import { TurnFeed } from './turn-feed';

const readAll = (stream: ReadableStream<UIMessageChunk>) =>
  readSome(stream.getReader(), Number.POSITIVE_INFINITY);

/** How many readers wait for the feed's next chunk (what a cancelled reader must not stay in). */
const waiting = (feed: TurnFeed) => (feed as unknown as { waiting: Set<unknown> }).waiting.size;

it('replays the chunks from the one asked for, then follows new ones until the end', async () => {
  const feed = new TurnFeed();
  feed.append(delta('a'));
  feed.append(delta('b'));
  feed.append(delta('c'));
  const reader = feed.read(1).getReader();
  expect(await readSome(reader, 2)).toEqual(['b', 'c']);
  const next = reader.read();
  feed.append(delta('d'));
  expect((await next).value).toEqual(delta('d'));
  feed.append(delta('e'));
  feed.end();
  expect(await readSome(reader, 10)).toEqual(['e']);
  expect((await reader.read()).done).toBe(true);
});

it('serves several readers, each from its own start, every one to the end', async () => {
  const feed = new TurnFeed();
  feed.append(delta('a'));
  const first = readAll(feed.read());
  const second = readAll(feed.read(1));
  feed.append(delta('b'));
  const third = readAll(feed.read());
  feed.append(delta('c'));
  feed.end();
  expect(await first).toEqual(['a', 'b', 'c']);
  expect(await second).toEqual(['b', 'c']);
  expect(await third).toEqual(['a', 'b', 'c']);
});

it('forgets a reader that cancels while it waits', async () => {
  const feed = new TurnFeed();
  feed.append(delta('a'));
  const reader = feed.read().getReader();
  expect(await readSome(reader, 1)).toEqual(['a']);
  const pending = reader.read();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(waiting(feed)).toBe(1);
  await reader.cancel();
  expect((await pending).done).toBe(true);
  expect(waiting(feed)).toBe(0);
  // The others still read on.
  feed.append(delta('b'));
  feed.end();
  expect(await readAll(feed.read())).toEqual(['a', 'b']);
});

it('gives a reader that comes after the end everything, then closes', async () => {
  const feed = new TurnFeed();
  feed.append(delta('a'));
  feed.append(delta('b'));
  feed.end();
  expect(await readAll(feed.read())).toEqual(['a', 'b']);
  expect(await readAll(feed.read(2))).toEqual([]);
});
