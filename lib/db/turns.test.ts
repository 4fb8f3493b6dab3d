import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { newId } from '../ids';
import { appendMessages, listMessages } from './messages';
import { type MessageRow, messages, sessions } from './schema';
import { createSession, DEFAULT_TITLE, getSession, storeContextSummary } from './sessions';
import { claimTurn, claimTurnForPrompt, closeTurn, releaseTurn, renewTurn } from './turns';

describeEachDatabase('turn marks', (database) => {
  const db = () => database().db;
  /** A message written again by someone else (another instance's turn, say). */
  const rewrite = (message: MessageRow, parts: MessageRow['parts']) =>
    db().update(messages).set({ parts }).where(eq(messages.id, message.id));

  it("closes a turn with its answer only while the mark is still the turn's", async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const text = (words: string) => [{ type: 'text' as const, text: words }];
    await claimTurn(db(), { sessionId: session.id, ownerId: 'owner-a', turnId: 't1' });
    const [prompt] = await appendMessages(db(), session.id, [{ role: 'user', parts: text('hi') }]);
    const turn = { sessionId: session.id, turnId: 't1' };
    const answer = { id: newId(), role: 'assistant' as const, parts: text('half') };
    expect(await closeTurn(db(), turn, answer)).toBe(true);
    expect((await getSession(db(), session.id))?.activeTurnId).toBeNull();
    // Closed again (a second instance that read it as dead too): the answer is not stored again,
    // after an edit that deleted it, nor over what the next turn wrote.
    await db().delete(messages).where(eq(messages.sessionId, session.id));
    expect(await closeTurn(db(), turn, { ...answer, parts: text('half, again') })).toBe(false);
    await claimTurn(db(), { sessionId: session.id, ownerId: 'owner-a', turnId: 't2' });
    expect(await closeTurn(db(), turn, answer)).toBe(false);
    expect(await listMessages(db(), session.id)).toEqual([]);
    expect((await getSession(db(), session.id))?.activeTurnId).toBe('t2');
    // With the mark its own, an answer already stored is replaced in place, and none is needed.
    await appendMessages(db(), session.id, [prompt as MessageRow, { ...answer, parts: text('x') }]);
    expect(await closeTurn(db(), { ...turn, turnId: 't2' }, answer)).toBe(true);
    expect((await listMessages(db(), session.id)).map((row) => [row.position, row.parts])).toEqual([
      [0, text('hi')],
      [1, text('half')],
    ]);
    await claimTurn(db(), { sessionId: session.id, ownerId: 'owner-a', turnId: 't3' });
    expect(await closeTurn(db(), { ...turn, turnId: 't3' }, undefined)).toBe(true);
    expect(await listMessages(db(), session.id)).toHaveLength(2);
  });

  it('closes a turn whose final answer was stored without touching that answer', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const text = (words: string) => [{ type: 'text' as const, text: words }];
    const turn = { sessionId: session.id, turnId: 't1' };
    await claimTurn(db(), { ...turn, ownerId: 'owner-a' });
    const id = newId();
    // Saved at the turn's end, whose release was then lost; its log held less.
    const complete = { model: 'demo:offline', status: 'complete' as const };
    await appendMessages(db(), session.id, [
      { role: 'user', parts: text('hi') },
      { id, role: 'assistant', parts: text('the whole answer'), metadata: complete },
    ]);
    const fromLog = {
      id,
      role: 'assistant' as const,
      parts: text('the whole'),
      metadata: { model: 'demo:offline', status: 'interrupted' as const },
    };
    expect(await closeTurn(db(), turn, fromLog)).toBe(true);
    expect((await getSession(db(), session.id))?.activeTurnId).toBeNull();
    const [, answer] = await listMessages(db(), session.id);
    expect([answer?.parts, answer?.metadata]).toEqual([text('the whole answer'), complete]);
    // A step's save, still streaming, is replaced by what the log holds.
    await claimTurn(db(), { sessionId: session.id, ownerId: 'owner-a', turnId: 't2' });
    await db()
      .update(messages)
      .set({ metadata: { ...complete, status: 'streaming' } })
      .where(eq(messages.id, id));
    expect(await closeTurn(db(), { ...turn, turnId: 't2' }, fromLog)).toBe(true);
    const [, replaced] = await listMessages(db(), session.id);
    expect([replaced?.parts, replaced?.metadata]).toEqual([fromLog.parts, fromLog.metadata]);
  });

  it("lets one turn at a time run on the owner's session", async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const claim = (turnId: string, ownerId = 'owner-a') =>
      claimTurn(db(), { sessionId: session.id, ownerId, turnId });
    expect(await claim('t0', 'owner-b')).toBeUndefined();
    expect(
      await claimTurn(db(), { sessionId: 'nothing', ownerId: 'owner-a', turnId: 't0' }),
    ).toBeUndefined();
    const claimed = await claim('t1');
    expect(claimed).toMatchObject({ id: session.id, activeTurnId: 't1', model: session.model });
    expect(await claim('t2')).toBeUndefined();
    // Even a mark nobody renewed for an hour (a dead server's) is not taken by a claim: it is
    // closed first, so that turn's answer is kept (lib/sessions/dead-turns).
    await db()
      .update(sessions)
      .set({ activeTurnStartedAt: new Date(Date.now() - 60 * 60_000) })
      .where(eq(sessions.id, session.id));
    expect(await claim('t2')).toBeUndefined();
    expect(await renewTurn(db(), session.id, 't1')).toBe(true);
    await releaseTurn(db(), session.id, 't1');
    expect(await renewTurn(db(), session.id, 't1')).toBe(false);
    expect((await claim('t2'))?.activeTurnId).toBe('t2');
  });

  it('names an unnamed session after its first prompt, and only then', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const claimNamed = async (sessionId: string, turnId: string, title: string) => {
      const claimed = await claimTurn(db(), { sessionId, ownerId: 'owner-a', turnId, title });
      await releaseTurn(db(), sessionId, turnId);
      return claimed?.title;
    };
    expect(session.title).toBe(DEFAULT_TITLE);
    expect(await claimNamed(session.id, 't1', 'First question')).toBe('First question');
    // Unnamed but not empty (say, its first prompt's title was cleared): not its first prompt.
    const talkedIn = await createSession(db(), { ownerId: 'owner-a' });
    await appendMessages(db(), talkedIn.id, [
      { role: 'user', parts: [{ type: 'text', text: 'First question' }] },
    ]);
    expect(await claimNamed(talkedIn.id, 't2', 'Second question')).toBe(DEFAULT_TITLE);

    const renamed = await createSession(db(), { ownerId: 'owner-a', title: 'Mine' });
    const claimed = await claimTurn(db(), {
      sessionId: renamed.id,
      ownerId: 'owner-a',
      turnId: 't3',
      title: 'Question',
    });
    expect(claimed?.title).toBe('Mine');
    expect((await getSession(db(), renamed.id))?.activeTurnId).toBe('t3');
  });

  it('claims for a prompt: the session, the history after its summary, the prompt stored after it', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const parts = (text: string) => [{ type: 'text' as const, text }];
    const claim = (turnId: string, promptId: string, ownerId = 'owner-a') =>
      claimTurnForPrompt(
        db(),
        { sessionId: session.id, ownerId, turnId, title: 'First question' },
        { id: promptId, parts: parts(`prompt ${promptId}`) },
      );
    // Not the owner's: nothing claimed, nothing stored.
    expect(await claim('t0', 'p0', 'owner-b')).toBeUndefined();
    expect(await listMessages(db(), session.id)).toEqual([]);

    const first = await claim('t1', 'p1');
    // The row as Drizzle reads it: the same fields, Dates for timestamps. Its count of message
    // writes is from before the prompt's.
    const read = await getSession(db(), session.id);
    expect(first?.session).toEqual({ ...read, messageRevision: (read?.messageRevision ?? 0) - 1 });
    expect(first?.session).toMatchObject({ activeTurnId: 't1', title: 'First question' });
    expect(first?.session.activeTurnStartedAt).toBeInstanceOf(Date);
    expect(first?.changed).toEqual([]);
    expect(first?.historyCount).toBe(0);
    expect(first?.position).toBe(0);
    expect(first?.prompt).toMatchObject({
      id: 'p1',
      position: 0,
      role: 'user',
      parts: parts('prompt p1'),
    });
    expect(first?.prompt?.createdAt).toBeInstanceOf(Date);
    // Held by t1: refused, and nothing stored.
    expect(await claim('t2', 'p2')).toBeUndefined();
    await releaseTurn(db(), session.id, 't1');

    await appendMessages(db(), session.id, [
      { role: 'assistant', parts: parts('answer 1') },
      { role: 'user', parts: parts('question 2') },
      { role: 'assistant', parts: parts('answer 2'), metadata: { model: 'm', status: 'complete' } },
    ]);
    // Kept by a turn that holds the session; one that does not hold it keeps nothing.
    const summary = { text: 'they asked twice', through: 2 };
    expect(await storeContextSummary(db(), { sessionId: session.id, turnId: 't1' }, summary)).toBe(
      false,
    );
    await claimTurn(db(), { sessionId: session.id, ownerId: 'owner-a', turnId: 't-summary' });
    const kept = { sessionId: session.id, turnId: 't-summary' };
    expect(await storeContextSummary(db(), kept, summary)).toBe(true);
    await releaseTurn(db(), session.id, 't-summary');
    expect((await getSession(db(), session.id))?.contextSummary).toEqual(summary);
    const later = await claim('t3', 'p3');
    // Named only once; the history from `through` on, oldest first, as stored (metadata too).
    expect(later?.session.title).toBe('First question');
    expect(later?.session.contextSummary).toEqual({ text: 'they asked twice', through: 2 });
    expect(later?.changed).toEqual((await listMessages(db(), session.id, 2)).slice(0, 2));
    expect(later?.changed.map((message) => message.position)).toEqual([2, 3]);
    expect(later?.historyCount).toBe(2);
    expect(later?.prompt).toMatchObject({ id: 'p3', position: 4 });
    expect(later?.position).toBe(4);
    await releaseTurn(db(), session.id, 't3');

    // An id another message has: claimed, but the prompt is left for the caller to store anew.
    const taken = await claim('t4', 'p1');
    expect(taken?.session.activeTurnId).toBe('t4');
    expect(taken?.prompt).toBeUndefined();
    expect((await listMessages(db(), session.id)).map((message) => message.id).at(-1)).toBe('p3');
  });

  it("stamps each message write with the session's next revision, in the order they happen", async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const other = await createSession(db(), { ownerId: 'owner-a' });
    const parts = (text: string) => [{ type: 'text' as const, text }];
    const [first, second] = await appendMessages(db(), session.id, [
      { role: 'user', parts: parts('one') },
      { role: 'assistant', parts: parts('two') },
    ]);
    const [elsewhere] = await appendMessages(db(), other.id, [{ role: 'user', parts: parts('x') }]);
    expect([first?.revision, second?.revision, elsewhere?.revision]).toEqual([1, 2, 1]);
    // A message written again takes the next revision; the others keep theirs.
    await rewrite(second as MessageRow, parts('2'));
    const stored = await listMessages(db(), session.id);
    expect(stored.map((row) => row.revision)).toEqual([1, 3]);
    expect((await getSession(db(), session.id))?.messageRevision).toBe(3);
  });

  it('reads of the history only what was written after the revision held, and how long it is', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const parts = (text: string) => [{ type: 'text' as const, text }];
    const claim = (turnId: string, since?: number) =>
      claimTurnForPrompt(
        db(),
        { sessionId: session.id, ownerId: 'owner-a', turnId },
        { id: newId(), parts: parts(turnId) },
        since,
      );
    await appendMessages(db(), session.id, [
      { role: 'user', parts: parts('q1') },
      { role: 'assistant', parts: parts('a1') },
    ]);
    const whole = await claim('t1');
    expect(whole?.changed.map((row) => row.position)).toEqual([0, 1]);
    const holding = Math.max(...(whole?.changed ?? []).map((r) => r.revision));
    await appendMessages(db(), session.id, [{ role: 'assistant', parts: parts('a2') }]);
    await releaseTurn(db(), session.id, 't1');

    // Held up to a1: the prompt t1 and its answer are new.
    const next = await claim('t2', holding);
    expect(next?.changed.map((row) => row.parts)).toEqual([parts('t1'), parts('a2')]);
    expect(next?.historyCount).toBe(4);
    await releaseTurn(db(), session.id, 't2');

    // A message written again is new too.
    const stored = await listMessages(db(), session.id);
    const newest = Math.max(...stored.map((row) => row.revision));
    await rewrite(stored[1] as MessageRow, parts('a1, again'));
    const rewritten = await claim('t3', newest);
    expect(rewritten?.changed.map((row) => row.parts)).toEqual([parts('a1, again')]);
    expect(rewritten?.historyCount).toBe(5);
    await releaseTurn(db(), session.id, 't3');

    // Nothing written since: nothing read, however long the history.
    const unchanged = await claim('t4', newest + 2);
    expect(unchanged?.changed).toEqual([]);
    expect(unchanged?.historyCount).toBe(6);
  });

  it('reads the messages of a long session at most twice to claim it, not three times', async () => {
    // The rows of messages the database reads for the claim, counted in its own transaction.
    const rowsRead = async (count: number) => {
      const session = await createSession(db(), { ownerId: 'owner-a' });
      const stored = await appendMessages(
        db(),
        session.id,
        Array.from({ length: count }, (_, index) => ({
          role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
          parts: [{ type: 'text' as const, text: `message ${index}` }],
        })),
      );
      return db().transaction(async (tx) => {
        const read = async () => {
          const { rows } = (await tx.execute(
            sql`select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0) as read
              from pg_stat_xact_user_tables where relname = 'messages'`,
          )) as unknown as { rows: { read: number | string }[] };
          return Number(rows[0]?.read);
        };
        const before = await read();
        const claimed = await claimTurnForPrompt(
          tx,
          { sessionId: session.id, ownerId: 'owner-a', turnId: 't' },
          { id: newId(), parts: [{ type: 'text', text: 'and now?' }] },
          Math.max(...stored.map((row) => row.revision)),
        );
        expect(claimed?.historyCount).toBe(count);
        return (await read()) - before;
      });
    };
    // Once to count them; the changed rows come from an index, or (as PostgreSQL's planner may
    // choose) a second pass. The newest position is always the index's last entry.
    expect(await rowsRead(1000)).toBeLessThanOrEqual(2 * 1000 + (await rowsRead(10)));
  });
});
