import { describe, expect, it } from 'vitest';
import type { QuantaMessage } from '@/lib/protocol';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { newId } from '../ids';
import { appendMessages, listMessages, saveTurnAnswer } from './messages';
import { addNote, listNotes } from './notes';
import { createSession } from './sessions';
import { storable } from './storable';
import { claimTurn, closeTurn } from './turns';
import { getWidgetState, writeWidgetState } from './widget-states';

// NUL, a lone high and a lone low surrogate, and a 4-byte emoji (a valid surrogate pair).
const BAD = 'a\u0000b\uD800c\uDC00d 🦊';
const CLEAN = 'a\uFFFDb\uFFFDc\uFFFDd 🦊';

const answer = (text: string): QuantaMessage['parts'] => [
  { type: 'text', text, state: 'done' },
  {
    type: 'tool-save_note',
    toolCallId: 'call-1',
    state: 'output-available',
    input: { text, [text]: [text, 1, true, null] },
    output: { isError: false, modelText: `saved ${text}`, durationMs: 3 },
  },
];

describe('storable', () => {
  it('replaces NUL and lone surrogates, in values and keys, and keeps the rest', () => {
    const value = { [BAD]: [BAD, 1, false, null, { nested: BAD }], kept: 'plain' };
    expect(storable(value)).toEqual({
      [CLEAN]: [CLEAN, 1, false, null, { nested: CLEAN }],
      kept: 'plain',
    });
    // A copy: the original is untouched.
    expect(value[BAD]?.[0]).toBe(BAD);
  });

  it('keeps a __proto__ key as data, not as a prototype', () => {
    const stored = storable(JSON.parse('{"__proto__": {"polluted": "\\u0000"}}'));
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.hasOwn(stored, '__proto__')).toBe(true);
    expect(JSON.stringify(stored)).toBe('{"__proto__":{"polluted":"\uFFFD"}}');
  });

  it('leaves numbers, booleans, null and non-plain objects as they are', () => {
    const date = new Date(0);
    expect(storable([0, true, null, date])).toEqual([0, true, null, date]);
    expect(storable(7)).toBe(7);
  });
});

describeEachDatabase('writes of model and tool output', (database) => {
  const db = () => database().db;

  it('stores an answer whose text and tool input hold NUL and lone surrogates', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const turn = { sessionId: session.id, turnId: newId() };
    await claimTurn(db(), { ...turn, ownerId: 'owner-a' });
    const id = newId();
    await saveTurnAnswer(db(), turn, {
      id,
      position: 0,
      role: 'assistant',
      parts: answer(BAD),
      metadata: { status: 'failed', error: BAD },
    });
    const [stored] = await listMessages(db(), session.id);
    expect(stored?.parts).toEqual(answer(CLEAN));
    expect(stored?.metadata).toEqual({ status: 'failed', error: CLEAN });

    // Saved again (the next step): replaced the same way.
    await saveTurnAnswer(db(), turn, {
      id,
      position: 0,
      role: 'assistant',
      parts: answer(`${BAD}!`),
      metadata: null,
    });
    const [again] = await listMessages(db(), session.id);
    expect(again?.parts).toEqual(answer(`${CLEAN}!`));

    // Closed as dead, from its log: replaced the same way.
    await closeTurn(db(), turn, {
      id,
      role: 'assistant',
      parts: answer(`${BAD}?`),
      metadata: null,
    });
    const [closed] = await listMessages(db(), session.id);
    expect(closed?.parts).toEqual(answer(`${CLEAN}?`));
  });

  it('appends messages holding them', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    await appendMessages(db(), session.id, [
      { role: 'user', parts: [{ type: 'text', text: BAD }] },
    ]);
    const [stored] = await listMessages(db(), session.id);
    expect(stored?.parts).toEqual([{ type: 'text', text: CLEAN }]);
  });

  it('stores widget data and notes holding them', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const state = { sessionId: session.id, key: 'call-1', widgetId: 'table' };
    expect(await writeWidgetState(db(), { ...state, data: { rows: [BAD] }, version: 0 })).toBe(1);
    expect(await writeWidgetState(db(), { ...state, data: { [BAD]: BAD }, version: 1 })).toBe(2);
    expect((await getWidgetState(db(), session.id, 'call-1'))?.data).toEqual({ [CLEAN]: CLEAN });

    const note = await addNote(db(), session.id, BAD);
    expect(note.text).toBe(CLEAN);
    expect((await listNotes(db(), session.id)).map((kept) => kept.text)).toEqual([CLEAN]);
  });
});
