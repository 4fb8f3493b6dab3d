/**
 * `value` with every object in it frozen, for a value parsed from JSON (no cycles) that is kept
 * and handed out again and again: code that changed it would fail where it did so, not reach
 * whoever is handed it next.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
