/** Returns the path of the first part of `value` that is not JSON, or undefined when it all is. */
export function findNonJson(value: unknown, path = 'data'): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNonJson(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = findNonJson(item, `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return path;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
