/**
 * Group commit: items handed in while a write is in flight wait for it, then go in together in
 * the next one. An idle writer writes on the event loop's next turn, with every item handed in
 * before it (the turns' logs, which write at the same ticks); a busy one makes fewer, larger
 * writes instead of queueing one per item. Each caller's promise settles with its own item:
 * should a group fail, its items are written one by one, so one bad item fails alone.
 */
export function groupCommit<T>(write: (items: T[]) => Promise<void>): (item: T) => Promise<void> {
  type Waiting = { item: T; resolve: () => void; reject: (error: unknown) => void };
  let queue: Waiting[] = [];
  let writing = false;

  const writeAlone = ({ item, resolve, reject }: Waiting) => write([item]).then(resolve, reject);
  const drain = async () => {
    while (queue.length > 0) {
      const group = queue;
      queue = [];
      try {
        await write(group.map(({ item }) => item));
        for (const { resolve } of group) resolve();
      } catch (error) {
        if (group.length === 1) group[0]?.reject(error);
        else await Promise.all(group.map(writeAlone));
      }
    }
    writing = false;
  };

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) {
        writing = true;
        setImmediate(drain);
      }
    });
}
