/**
 * `value` behind a proxy that counts the reads of its `key`: for a test that something is read
 * once and kept. The proxy passes everything else through, `Object.isFrozen` included.
 */
export function countedReads<T extends object>(
  value: T,
  key: keyof T,
): { value: T; reads(): number } {
  let reads = 0;
  const counted = new Proxy(value, {
    get(target, name) {
      if (name === key) reads += 1;
      return Reflect.get(target, name);
    },
  });
  return { value: counted, reads: () => reads };
}
