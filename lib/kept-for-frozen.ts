/**
 * `make`, kept per frozen argument. A value frozen through and through (the history cache's
 * messages, handed out turn after turn) cannot change, so what is made of it holds for as long
 * as the value lives; an unfrozen value, which may still change, is made anew at every call.
 * Only the top is checked: `make` must be given nothing frozen at the top alone.
 */
export function keptForFrozen<Key extends object, Value>(
  make: (key: Key) => Value,
): (key: Key) => Value {
  const kept = new WeakMap<Key, Value>();
  return (key) => {
    if (!Object.isFrozen(key)) return make(key);
    if (kept.has(key)) return kept.get(key) as Value;
    const value = make(key);
    kept.set(key, value);
    return value;
  };
}
