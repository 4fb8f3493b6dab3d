import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { textDelta as delta } from '@/tests/helpers/turn-chunks';
import { sessions } from './schema';
import { createSession } from './sessions';
import { appendChunks, deleteEndedTurnLogs, deleteTurnLog, readChunks } from './turn-log';

const deltas = (...texts: string[]) => texts.map(delta);

describeEachDatabase('turn logs', (database) => {
  const db = () => database().db;

  it('reads a turn from any chunk on, the middle of a batch included', async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    await appendChunks(db(), id, 'turn-1', 0, deltas('a', 'b', 'c'));
    await appendChunks(db(), id, 'turn-1', 3, deltas('d', 'e'));
    await appendChunks(db(), id, 'turn-other', 0, deltas('x'));
    expect(await readChunks(db(), 'turn-1')).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((text, seq) => ({ seq, chunk: delta(text) })),
    );
    expect(await readChunks(db(), 'turn-1', 1)).toEqual([
      { seq: 1, chunk: delta('b') },
      { seq: 2, chunk: delta('c') },
      { seq: 3, chunk: delta('d') },
      { seq: 4, chunk: delta('e') },
    ]);
    expect(await readChunks(db(), 'turn-1', 4)).toEqual([{ seq: 4, chunk: delta('e') }]);
    expect(await readChunks(db(), 'turn-1', 5)).toEqual([]);
  });

  it('writes the batches of turns appending at once, one failing alone', async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    const appended = await Promise.allSettled([
      appendChunks(db(), id, 'turn-a', 0, deltas('a')),
      appendChunks(db(), id, 'turn-b', 0, deltas('b')),
      // A session deleted under its turn: its batch fails, the others are written.
      appendChunks(db(), 'no-such-session', 'turn-c', 0, deltas('c')),
      appendChunks(db(), id, 'turn-a', 1, deltas('a2')),
    ]);
    expect(appended.map(({ status }) => status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(await readChunks(db(), 'turn-a')).toEqual([
      { seq: 0, chunk: delta('a') },
      { seq: 1, chunk: delta('a2') },
    ]);
    expect(await readChunks(db(), 'turn-b')).toEqual([{ seq: 0, chunk: delta('b') }]);
    expect(await readChunks(db(), 'turn-c')).toEqual([]);
  });

  it('removes a turn’s log, and the logs of all but the marked turn', async () => {
    const { id } = await createSession(db(), { ownerId: 'owner-a' });
    const other = await createSession(db(), { ownerId: 'owner-a' });
    await appendChunks(db(), id, 'ended-1', 0, deltas('a'));
    await appendChunks(db(), id, 'ended-2', 0, deltas('b'));
    await appendChunks(db(), id, 'running', 0, deltas('c'));
    await appendChunks(db(), other.id, 'elsewhere', 0, deltas('d'));
    await db()
      .update(sessions)
      .set({ activeTurnId: 'running', activeTurnStartedAt: new Date() })
      .where(eq(sessions.id, id));
    await deleteEndedTurnLogs(db(), id);
    expect(await readChunks(db(), 'ended-1')).toEqual([]);
    expect(await readChunks(db(), 'ended-2')).toEqual([]);
    expect(await readChunks(db(), 'running')).toHaveLength(1);
    // Another session's logs are its own business.
    expect(await readChunks(db(), 'elsewhere')).toHaveLength(1);
    // With no turn marked, none is kept.
    await db()
      .update(sessions)
      .set({ activeTurnId: null, activeTurnStartedAt: null })
      .where(eq(sessions.id, id));
    await deleteEndedTurnLogs(db(), id);
    expect(await readChunks(db(), 'running')).toEqual([]);
    await deleteTurnLog(db(), 'elsewhere');
    expect(await readChunks(db(), 'elsewhere')).toEqual([]);
  });
});
