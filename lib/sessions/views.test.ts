import { describe, expect, it } from 'vitest';
import type { MessageRow } from '../db/schema';
import { HistoryCache } from './history-cache';
import { toMessage } from './views';

const row = (): MessageRow => ({
  id: 'm1',
  sessionId: 's',
  position: 0,
  role: 'user',
  parts: [{ type: 'text', text: 'Hello' }],
  metadata: null,
  revision: 1,
  createdAt: new Date(0),
});

describe('toMessage', () => {
  it('gives a row the history cache holds the same frozen message at every turn', () => {
    const held = row();
    new HistoryCache().keep('s', [held]);
    const message = toMessage(held);
    expect(message).toEqual({ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] });
    expect(Object.isFrozen(message)).toBe(true);
    expect(toMessage(held)).toBe(message);
  });

  it('gives a row just read a message of its own each time', () => {
    const read = row();
    const message = toMessage(read);
    expect(Object.isFrozen(message)).toBe(false);
    expect(toMessage(read)).not.toBe(message);
    expect(toMessage(read)).toEqual(message);
  });
});
