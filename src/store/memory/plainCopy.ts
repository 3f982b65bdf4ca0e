/**
 * A deep copy of JSON-like data (plain objects, arrays, primitives), the
 * same as `structuredClone` gives for it at a fraction of the cost:
 * structuredClone serialises and deserialises the whole value, which showed
 * among the engine's top costs when every final intent's audit event was
 * copied into the memory store. Any other object met on the way (a Date, a
 * Map, a class instance, a function) is handed to `structuredClone`, so it
 * is copied, or refused, exactly as before. Values must not be cyclic.
 */
export function plainCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return typeof value === 'function' ? structuredClone(value) : value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = plainCopy(value[i]);
    return out as T;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = plainCopy((value as Record<string, unknown>)[key]);
  return out as T;
}
