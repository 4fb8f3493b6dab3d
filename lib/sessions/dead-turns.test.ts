import type { UIMessageChunk } from 'ai';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { listMessages, truncateMessages } from '../db/messages';
import { sessions } from '../db/schema';
import { createSession, getSession } from '../db/sessions';
import { appendChunks, readChunks } from '../db/turn-log';
import { claimTurn } from '../db/turns';
import { subscribe } from '../events/session-events';
import { newId } from '../ids';
import type { SessionEvent } from '../protocol';
import { runningTurn, trackTurn, untrackTurn } from '../turns/running-turns';
import { stopKey, type TurnMessage, turnBus } from '../turns/turn-bus';
import { TurnFeed } from '../turns/turn-feed';
import { closeIfDead, closeTurnsOfDeadProcess } from './dead-turns';
import { STALE_TURN_MS } from './turn-mark';

const answer = (messageId: string, text: string): UIMessageChunk[] => [
  { type: 'start', messageId, messageMetadata: { status: 'streaming' } },
  { type: 'start-step' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: text },
];

describeEachDatabase('turns whose server died', (database) => {
  const db = () => database().db;

  /** A session whose turn logged `text` and was marked `ageMs` ago. */
  async function markedSession(text: string, ageMs: number) {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const turnId = newId();
    const messageId = newId();
    await db()
      .update(sessions)
      .set({ activeTurnId: turnId, activeTurnStartedAt: new Date(Date.now() - ageMs) })
      .where(eq(sessions.id, session.id));
    await appendChunks(db(), session.id, turnId, 0, answer(messageId, text));
    return { id: session.id, turnId, messageId };
  }

  it('at start-up, closes every marked turn, however fresh its mark, and removes every log', async () => {
    const first = await markedSession('First partial', 0);
    const second = await markedSession('Second partial', STALE_TURN_MS * 2);
    // An ended turn's log, whose removal 30 s after its end died with the process.
    const ended = newId();
    await appendChunks(db(), first.id, ended, 0, answer(newId(), 'Ended'));
    const stops: TurnMessage[] = [];
    const unsubscribe = turnBus().subscribe(stopKey(first.turnId), (message) =>
      stops.push(message),
    );
    await closeTurnsOfDeadProcess(db());
    expect(await readChunks(db(), ended)).toEqual([]);
    unsubscribe();
    for (const [turn, text] of [
      [first, 'First partial'],
      [second, 'Second partial'],
    ] as const) {
      expect((await getSession(db(), turn.id))?.activeTurnId).toBeNull();
      expect(await readChunks(db(), turn.turnId)).toEqual([]);
      const [stored] = await listMessages(db(), turn.id);
      expect(stored).toMatchObject({
        id: turn.messageId,
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'text', text, state: 'done' }],
        metadata: { status: 'interrupted' },
      });
    }
    // Should it still run somewhere after all, it is told to stop.
    expect(stops).toEqual([{ type: 'stop' }]);
  });

  it('closes a turn once: a second closer with the same stale read writes and says nothing', async () => {
    const dead = await markedSession('Died', STALE_TURN_MS * 2);
    const stale = (await getSession(db(), dead.id)) ?? expect.fail('no session');
    expect(await closeIfDead(db(), stale)).toBe(true);
    // The transcript edited away, and the session taken by a new turn with a log of its own.
    await truncateMessages(db(), dead.id, 0);
    const next = newId();
    await claimTurn(db(), { sessionId: dead.id, ownerId: 'owner-a', turnId: next });
    await appendChunks(db(), dead.id, next, 0, answer(newId(), 'Next'));
    const events: SessionEvent[] = [];
    const unsubscribe = subscribe(dead.id, (event) => events.push(event));
    try {
      // Another instance that read the session as dead at the same time closes it too.
      await closeIfDead(db(), stale);
    } finally {
      unsubscribe();
    }
    expect(await listMessages(db(), dead.id)).toEqual([]);
    expect((await getSession(db(), dead.id))?.activeTurnId).toBe(next);
    expect(await readChunks(db(), next)).toHaveLength(4);
    expect(events).toEqual([]);
  });

  it('closes a stale turn, but not one that runs here nor one freshly marked', async () => {
    const here = await markedSession('Still going', STALE_TURN_MS * 2);
    const fresh = await markedSession('Going elsewhere', 0);
    const dead = await markedSession('Died', STALE_TURN_MS * 2);
    trackTurn(here.id, {
      turnId: here.turnId,
      controller: new AbortController(),
      feed: new TurnFeed(),
    });
    try {
      const row = async (id: string) => (await getSession(db(), id)) ?? expect.fail('no session');
      expect(await closeIfDead(db(), await row(here.id))).toBe(false);
      expect(await closeIfDead(db(), await row(fresh.id))).toBe(false);
      expect(await closeIfDead(db(), await row(dead.id))).toBe(true);
      expect((await getSession(db(), here.id))?.activeTurnId).toBe(here.turnId);
      expect((await getSession(db(), fresh.id))?.activeTurnId).toBe(fresh.turnId);
      expect(await readChunks(db(), fresh.turnId)).toHaveLength(4);
      expect((await getSession(db(), dead.id))?.activeTurnId).toBeNull();
    } finally {
      untrackTurn(here.id, here.turnId);
    }
    expect(runningTurn(here.id)).toBeUndefined();
  });
});
