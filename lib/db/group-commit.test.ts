import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

/** A writer whose writes finish only when the test says, recording what each one held. */
function heldWriter(failOn?: (items: number[]) => boolean) {
  const writes: number[][] = [];
  const pending: (() => void)[] = [];
  const write = (items: number[]) => {
    writes.push(items);
    return new Promise<void>((resolve, reject) =>
      pending.push(() => (failOn?.(items) ? reject(new Error(`bad ${items}`)) : resolve())),
    );
  };
  const finishNext = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { write, writes, finishNext };
}

/** The event loop's next turn, when an idle writer writes. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('groupCommit', () => {
  it('writes on the next turn when idle, and groups what comes while a write is in flight', async () => {
    const writer = heldWriter();
    const append = groupCommit(writer.write);
    // Handed in together (the logs' shared tick): one write.
    const first = [append(1), append(2)];
    expect(writer.writes).toEqual([]);
    await nextTurn();
    expect(writer.writes).toEqual([[1, 2]]);
    const rest = [append(3), append(4), append(5)];
    expect(writer.writes).toEqual([[1, 2]]);
    await writer.finishNext();
    await Promise.all(first);
    expect(writer.writes).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await writer.finishNext();
    await Promise.all(rest);
  });

  it('fails only the item that cannot be written when a group fails', async () => {
    const writer = heldWriter((items) => items.includes(3));
    const append = groupCommit(writer.write);
    const outcomes = Promise.allSettled([append(1), append(2), append(3)]);
    await nextTurn();
    await writer.finishNext(); // [1, 2, 3] fails: each is written alone
    expect(writer.writes).toEqual([[1, 2, 3], [1], [2], [3]]);
    await writer.finishNext();
    await writer.finishNext();
    await writer.finishNext();
    expect((await outcomes).map(({ status }) => status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);
    expect((await outcomes)[2]).toMatchObject({ reason: new Error('bad 3') });
    // The writer is free again afterwards.
    const later = append(5);
    await nextTurn();
    expect(writer.writes.at(-1)).toEqual([5]);
    await writer.finishNext();
    await later;
  });
});
