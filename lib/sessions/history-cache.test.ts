import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../db/schema';
import { HistoryCache } from './history-cache';

const row = (position: number, revision: number, text = `m${position}`): MessageRow => ({
  id: `id-${position}-${revision}`,
  sessionId: 's',
  position,
  role: position % 2 === 0 ? 'user' : 'assistant',
  parts: [{ type: 'text', text }],
  metadata: null,
  revision,
  createdAt: new Date(0),
});

const texts = (rows: MessageRow[] | undefined) =>
  rows?.map((message) => (message.parts[0] as { text: string }).text);

describe('HistoryCache', () => {
  it('holds nothing of a session it has not read', () => {
    expect(new HistoryCache().heldRevision('s')).toBeUndefined();
  });

  it('brings what it holds up to date with the messages written since', () => {
    const cache = new HistoryCache();
    cache.keep('s', [row(0, 1), row(1, 2), row(2, 3)]);
    expect(cache.heldRevision('s')).toBe(3);
    // The third message written again, and two new ones: in order, the rewrite in its place.
    const history = cache.update('s', {
      from: 0,
      changed: [row(2, 4, 'm2 again'), row(3, 5), row(4, 6)],
      count: 5,
    });
    expect(texts(history)).toEqual(['m0', 'm1', 'm2 again', 'm3', 'm4']);
    expect(cache.heldRevision('s')).toBe(6);
  });

  it('leaves out what a new summary covers, and forgets a copy that starts too late', () => {
    const cache = new HistoryCache();
    cache.keep('s', [row(2, 3), row(3, 4), row(4, 5)]);
    expect(texts(cache.update('s', { from: 3, changed: [], count: 2 }))).toEqual(['m3', 'm4']);
    expect(cache.heldRevision('s')).toBe(5);
    // The summary went (an edit deleted what it covered): the copy lacks m1 and m2.
    expect(cache.update('s', { from: 1, changed: [], count: 4 })).toBeUndefined();
    expect(cache.heldRevision('s')).toBeUndefined();
  });

  it('forgets a copy that lacks messages and holds as many deleted ones', () => {
    const cache = new HistoryCache();
    // The copy started after a summary of m0 to m9.
    cache.keep('s', [row(10, 11), row(11, 12)]);
    // An edit of m2 deleted m2 to m11 and the summary, and wrote two anew: the history is m0,
    // m1 and those two, four messages, as many as the copy and the new rows would make.
    expect(
      cache.update('s', { from: 0, changed: [row(2, 14, 'm2 again'), row(3, 15)], count: 4 }),
    ).toBeUndefined();
    expect(cache.heldRevision('s')).toBeUndefined();
  });

  it('hands out rows no turn can change, to the last part', () => {
    const cache = new HistoryCache();
    cache.keep('s', [row(0, 1)]);
    const [held] = cache.update('s', { from: 0, changed: [row(1, 2)], count: 2 }) ?? [];
    const part = held?.parts[0] as { text: string };
    expect(() => {
      part.text = 'changed';
    }).toThrow(TypeError);
    expect(() => held?.parts.push({ type: 'text', text: 'more' })).toThrow(TypeError);
    expect(texts(cache.update('s', { from: 0, changed: [], count: 2 }))).toEqual(['m0', 'm1']);
  });

  it('forgets a history that holds messages since deleted', () => {
    const cache = new HistoryCache();
    cache.keep('s', [row(0, 1), row(1, 2), row(2, 3), row(3, 4)]);
    // An edit of the first message deleted the rest and stored two anew.
    expect(cache.update('s', { from: 0, changed: [row(0, 6), row(1, 7)], count: 2 })).toBe(
      undefined,
    );
    expect(cache.heldRevision('s')).toBeUndefined();
  });

  it('holds at most its limit of JSON, forgetting the sessions read least lately', () => {
    // Each of these rows weighs the same: its parts and its metadata as JSON.
    const each = JSON.stringify(row(0, 1).parts).length + JSON.stringify(null).length;
    const cache = new HistoryCache(5 * each);
    cache.keep('a', [row(0, 1), row(1, 2)]);
    cache.keep('b', [row(0, 1), row(1, 2)]);
    // Read again: now the latest.
    cache.update('a', { from: 0, changed: [], count: 2 });
    cache.keep('c', [row(0, 1), row(1, 2)]);
    expect(cache.heldRevision('b')).toBeUndefined();
    expect(cache.heldRevision('a')).toBeDefined();
    expect(cache.heldRevision('c')).toBeDefined();
    // A history heavier than the limit is not kept, and the others stay.
    cache.keep(
      'd',
      [0, 1, 2, 3, 4, 5].map((position) => row(position, position + 1)),
    );
    expect(cache.heldRevision('d')).toBeUndefined();
    expect(cache.heldRevision('a')).toBeDefined();
    expect(cache.heldRevision('c')).toBeDefined();
  });

  it('weighs what a message holds, not only how many there are', () => {
    const cache = new HistoryCache(1_000);
    cache.keep('small', [row(0, 1), row(1, 2)]);
    cache.keep('big', [row(0, 1, 'x'.repeat(950))]);
    expect(cache.heldRevision('small')).toBeUndefined();
    expect(cache.heldRevision('big')).toBeDefined();
  });
});
