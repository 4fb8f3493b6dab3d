import { expect, it } from 'vitest';
import { describeEachDatabase } from '@/tests/helpers/databases';
import { textDelta as delta, readSome } from '@/tests/helpers/turn-chunks';
import { createSession } from '../db/sessions';
import { appendChunks } from '../db/turn-log';
import { newId } from '../ids';
import { followTurn } from './follow-turn';
import { feedKey, followKey, type TurnMessage, turnBus } from './turn-bus';

describeEachDatabase('following a turn from another instance', (database) => {
  const db = () => database().db;
  const running = async () => true;

  /** A session with a turn whose log holds `logged`, and how its instance writes more. */
  async function turnWith(...logged: string[]) {
    const session = await createSession(db(), { ownerId: 'owner-a' });
    const turnId = newId();
    if (logged.length > 0) await appendChunks(db(), session.id, turnId, 0, logged.map(delta));
    const log = (from: number, ...more: string[]) =>
      appendChunks(db(), session.id, turnId, from, more.map(delta));
    // As the running instance does it: the batch is in the log before it is published.
    const write = async (from: number, ...more: string[]) => {
      await log(from, ...more);
      turnBus().publish(feedKey(turnId), { type: 'chunks', from, chunks: more.map(delta) });
    };
    return { turnId, log, write };
  }

  it('replays the log from the chunk asked for, then follows the batches published', async () => {
    const { turnId, write } = await turnWith('a', 'b', 'c');
    const reader = followTurn({ db: db(), turnId, from: 1, stillRunning: running }).getReader();
    expect(await readSome(reader, 2)).toEqual(['b', 'c']);
    await write(3, 'd', 'e');
    await write(5, 'f');
    expect(await readSome(reader, 3)).toEqual(['d', 'e', 'f']);
    turnBus().publish(feedKey(turnId), { type: 'end' });
    expect(await readSome(reader, 1)).toEqual([]);
  });

  it('passes on a batch heard twice once', async () => {
    const { turnId, write } = await turnWith('a');
    const reader = followTurn({ db: db(), turnId, from: 0, stillRunning: running }).getReader();
    expect(await readSome(reader, 1)).toEqual(['a']);
    await write(1, 'b', 'c');
    turnBus().publish(feedKey(turnId), {
      type: 'chunks',
      from: 1,
      chunks: [delta('b'), delta('c')],
    });
    await write(3, 'd');
    expect(await readSome(reader, 3)).toEqual(['b', 'c', 'd']);
    turnBus().publish(feedKey(turnId), { type: 'end' });
    expect(await readSome(reader, 10)).toEqual([]);
  });

  it('reads a batch it missed from the log when a later one is heard first', async () => {
    const { turnId, log, write } = await turnWith('a');
    const reader = followTurn({ db: db(), turnId, from: 0, stillRunning: running }).getReader();
    expect(await readSome(reader, 1)).toEqual(['a']);
    // Batch 1–2 is logged but its message is lost; batch 3 is heard.
    await log(1, 'b', 'c');
    await write(3, 'd');
    expect(await readSome(reader, 3)).toEqual(['b', 'c', 'd']);
    await reader.cancel();
  });

  it('ends on the turn’s end, after what the log holds beyond what was heard', async () => {
    const { turnId, log } = await turnWith('a');
    const reader = followTurn({ db: db(), turnId, from: 0, stillRunning: running }).getReader();
    expect(await readSome(reader, 1)).toEqual(['a']);
    // Logged, but its message lost: the end is the first the reader hears since.
    await log(1, 'b', 'c');
    turnBus().publish(feedKey(turnId), { type: 'end' });
    expect(await readSome(reader, 10)).toEqual(['b', 'c']);
    expect(turnBus().listenerCount(feedKey(turnId))).toBe(0);
  });

  it('ends when the turn no longer runs though its end was never heard', async () => {
    const { turnId, log } = await turnWith('a');
    let alive = true;
    const stream = followTurn({
      db: db(),
      turnId,
      from: 0,
      stillRunning: async () => alive,
      watchEveryMs: 10,
    });
    const reader = stream.getReader();
    expect(await readSome(reader, 1)).toEqual(['a']);
    await log(1, 'b');
    await new Promise((resolve) => setTimeout(resolve, 50));
    alive = false;
    expect(await readSome(reader, 10)).toEqual(['b']);
    expect(turnBus().listenerCount(feedKey(turnId))).toBe(0);
  });

  it('asks the turn’s instance for its log live, and again at each watch, until it leaves', async () => {
    const { turnId } = await turnWith('a');
    const asked: TurnMessage[] = [];
    const unsubscribe = turnBus().subscribe(followKey(turnId), (message) => asked.push(message));
    const reader = followTurn({
      db: db(),
      turnId,
      from: 0,
      stillRunning: running,
      watchEveryMs: 20,
    }).getReader();
    expect(asked).toEqual([{ type: 'follow' }]);
    await expect.poll(() => asked.length).toBeGreaterThanOrEqual(3);
    expect(new Set(asked.map(({ type }) => type))).toEqual(new Set(['follow']));
    await reader.cancel();
    const before = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(asked).toHaveLength(before);
    unsubscribe();
  });

  it('stops listening when its reader goes away', async () => {
    const { turnId } = await turnWith('a');
    const reader = followTurn({ db: db(), turnId, from: 0, stillRunning: running }).getReader();
    expect(turnBus().listenerCount(feedKey(turnId))).toBe(1);
    expect(await readSome(reader, 1)).toEqual(['a']);
    await reader.cancel();
    expect(turnBus().listenerCount(feedKey(turnId))).toBe(0);
  });
});
