import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { sessions } from './schema';
import { createSession, getSession } from './sessions';
import { claimTurn, renewTurn } from './turns';

describeEachDatabase('turn marks', (database) => {
  const db = () => database().db;

  it('lets one turn run at a time; a renewed turn stays claimed, a silent one goes stale', async () => {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const fifteenMinutes = 15 * 60_000;
    const backdate = () =>
      db()
        .update(sessions)
        .set({ activeTurnStartedAt: new Date(Date.now() - 60 * 60_000) })
        .where(eq(sessions.id, session.id));
    expect(await claimTurn(db(), session.id, 't1', fifteenMinutes)).toBe(true);
    expect(await claimTurn(db(), session.id, 't2', fifteenMinutes)).toBe(false);
    // A long turn that keeps working renews its mark and keeps the session.
    await backdate();
    expect(await renewTurn(db(), session.id, 't1')).toBe(true);
    expect(await claimTurn(db(), session.id, 't2', fifteenMinutes)).toBe(false);
    // One that fell silent (its server died) gives it up; its late renewal changes nothing.
    await backdate();
    expect(await claimTurn(db(), session.id, 't2', fifteenMinutes)).toBe(true);
    expect(await renewTurn(db(), session.id, 't1')).toBe(false);
    expect((await getSession(db(), session.id))?.activeTurnId).toBe('t2');
  });
});
