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

describe('groupCommit', () => {
  it('writes at once when idle, and groups what comes while a write is in flight', async () => {
    const writer = heldWriter();
    const append = groupCommit(writer.write);
    const first = append(1);
    expect(writer.writes).toEqual([[1]]);
    const rest = [append(2), append(3), append(4)];
    expect(writer.writes).toEqual([[1]]);
    await writer.finishNext();
    await first;
    expect(writer.writes).toEqual([[1], [2, 3, 4]]);
    await writer.finishNext();
    await Promise.all(rest);
  });

  it('fails only the item that cannot be written when a group fails', async () => {
    const writer = heldWriter((items) => items.includes(3));
    const append = groupCommit(writer.write);
    const first = append(1);
    const [two, three] = [append(2), append(3)];
    const outcomes = Promise.allSettled([two, three]);
    await writer.finishNext(); // [1]
    await first;
    await writer.finishNext(); // [2, 3] fails: each is written alone
    expect(writer.writes.slice(2)).toEqual([[2], [3]]);
    await writer.finishNext();
    await writer.finishNext();
    const [ok, bad] = await outcomes;
    expect(ok.status).toBe('fulfilled');
    expect(bad).toMatchObject({ status: 'rejected', reason: new Error('bad 3') });
    // The writer is free again afterwards.
    const later = append(5);
    expect(writer.writes.at(-1)).toEqual([5]);
    await writer.finishNext();
    await later;
  });
});
