import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { ID_PATTERN, newId } from '../ids';
import { addNote, countNotes, listNotes } from './notes';
import { createSession, deleteSession } from './sessions';

const tick = () => new Promise((resolve) => setTimeout(resolve, 2));

describeEachDatabase('note queries', (database) => {
  const db = () => database().db;

  it('adds notes to a session and lists them oldest first', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const first = await addNote(db(), session.id, 'buy milk');
    expect(first).toMatchObject({ sessionId: session.id, text: 'buy milk' });
    expect(first.id).toMatch(ID_PATTERN);
    expect(first.createdAt).toBeInstanceOf(Date);
    for (const text of ['b', 'c', 'd', 'e']) {
      // Distinct milliseconds: PGlite's clock has no finer ones, so "oldest" has one answer.
      await tick();
      await addNote(db(), session.id, text);
    }

    const listed = await listNotes(db(), session.id);
    expect(listed.map((note) => note.text)).toEqual(['buy milk', 'b', 'c', 'd', 'e']);
    expect(listed[0]).toEqual(first);
    expect(await countNotes(db(), session.id)).toBe(5);
  });

  it('keeps each session’s notes apart', async () => {
    const a = await createSession(db(), { ownerId: 'owner-a' });
    const b = await createSession(db(), { ownerId: 'owner-a' });
    await addNote(db(), a.id, 'for a');
    await addNote(db(), b.id, 'for b');
    expect((await listNotes(db(), a.id)).map((note) => note.text)).toEqual(['for a']);
    expect(await countNotes(db(), b.id)).toBe(1);
  });

  it('has nothing for a session without notes', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    expect(await listNotes(db(), session.id)).toEqual([]);
    expect(await countNotes(db(), session.id)).toBe(0);
  });

  it('keeps text as given: long, multi-line, quotes and emoji', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const text = `line "one"\n'two' 🦀 ${'x'.repeat(1990)}`;
    await addNote(db(), session.id, text);
    expect((await listNotes(db(), session.id)).map((note) => note.text)).toEqual([text]);
  });

  it('refuses a note for a session that does not exist', async () => {
    await expect(addNote(db(), newId(), 'orphan')).rejects.toThrow();
  });

  it('deletes the notes with their session', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    await addNote(db(), session.id, 'gone soon');
    await deleteSession(db(), session.id);
    expect(await listNotes(db(), session.id)).toEqual([]);
  });
});
