import { asc, count, eq } from 'drizzle-orm';
import { newId } from '../ids';
import type { Db } from './client';
import { type NoteRow, notes } from './schema';
import { storable } from './storable';

/**
 * Keeps a note on the session, its text made storable (lib/db/storable), timed by the database's
 * clock: microseconds on PostgreSQL, but milliseconds on PGlite, where notes of the same
 * millisecond list in no particular order.
 */
export async function addNote(db: Db, sessionId: string, text: string): Promise<NoteRow> {
  const [row] = await db
    .insert(notes)
    .values({ id: newId(), sessionId, text: storable(text) })
    .returning();
  return row as NoteRow;
}

/** The session's notes, oldest first (ties in a fixed, arbitrary order). */
export async function listNotes(db: Db, sessionId: string): Promise<NoteRow[]> {
  return db
    .select()
    .from(notes)
    .where(eq(notes.sessionId, sessionId))
    .orderBy(asc(notes.createdAt), asc(notes.id));
}

/** How many notes the session has. */
export async function countNotes(db: Db, sessionId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notes).where(eq(notes.sessionId, sessionId));
  return row?.n ?? 0;
}
