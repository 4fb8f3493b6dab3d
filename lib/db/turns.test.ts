import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { appendMessages } from './messages';
import { sessions } from './schema';
import { createSession, DEFAULT_TITLE, getSession } from './sessions';
import { claimTurn, releaseTurn, renewTurn } from './turns';

describeEachDatabase('turn marks', (database) => {
  const db = () => database().db;

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
});
