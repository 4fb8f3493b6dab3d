import { expect, it } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { type History, withEarlier, withNewest } from './history';

const message = (id: string, role: 'user' | 'assistant' = 'assistant'): QuantaMessage => ({
  id,
  role,
  parts: [{ type: 'text', text: id }],
});
const ids = ({ messages }: History) => messages.map(({ id }) => id);
const page = (messageIds: string[], hasEarlier: boolean) => ({
  messages: messageIds.map((id) => message(id, id.startsWith('u') ? 'user' : 'assistant')),
  hasEarlier,
  widgetStates: {},
});
const held = (messageIds: string[], hasEarlier: boolean): History => {
  const { messages } = page(messageIds, hasEarlier);
  return { messages, hasEarlier };
};

it('puts a page of earlier messages in front, and learns whether more remain', () => {
  const history = held(['u3', 'a3'], true);
  const more = withEarlier(history, page(['u2', 'a2'], true), 'u3');
  expect(ids(more)).toEqual(['u2', 'a2', 'u3', 'a3']);
  expect(more.hasEarlier).toBe(true);
  const all = withEarlier(more, page(['u1', 'a1'], false), 'u2');
  expect(ids(all)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
  expect(all.hasEarlier).toBe(false);
});

it('drops a page of earlier messages that comes after the transcript was replaced', () => {
  const history = held(['u9', 'a9'], true);
  expect(withEarlier(history, page(['u2', 'a2'], true), 'u3')).toBe(history);
});

it('takes the newest messages over the same ones, keeping the earlier ones it holds', () => {
  const history = held(['u1', 'a1', 'u2', 'a2'], true);
  // A turn ran elsewhere: a2 was written in full, u3 and a3 came after it.
  const newest = withNewest(history, page(['u2', 'a2', 'u3', 'a3'], true));
  expect(ids(newest)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
  expect(newest.messages[3]).toEqual(message('a2'));
  expect(newest.hasEarlier).toBe(true);
});

it('drops what an edit elsewhere removed', () => {
  const history = held(['u1', 'a1', 'u2', 'a2', 'u3', 'a3'], false);
  expect(ids(withNewest(history, page(['a1', 'u2', 'a2b'], true)))).toEqual([
    'u1',
    'a1',
    'u2',
    'a2b',
  ]);
});

it('replaces what it holds when it holds none of the newest, with the server’s word on earlier ones', () => {
  const history = held(['u1', 'a1'], false);
  const newest = withNewest(history, page(['u7', 'a7'], true));
  expect(ids(newest)).toEqual(['u7', 'a7']);
  expect(newest.hasEarlier).toBe(true);
  expect(withNewest(history, page([], false))).toEqual({ messages: [], hasEarlier: false });
});

it('keeps a prompt the server refused, last, for Retry', () => {
  const history = held(['u1', 'a1', 'u2'], true);
  expect(ids(withNewest(history, page(['u1', 'a1'], true)))).toEqual(['u1', 'a1', 'u2']);
  // Stored after all: it is not shown twice.
  expect(ids(withNewest(history, page(['u1', 'a1', 'u2', 'a2'], true)))).toEqual([
    'u1',
    'a1',
    'u2',
    'a2',
  ]);
});
