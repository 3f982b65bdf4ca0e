/**
 * Freezes `value` and everything it reaches, in place, and returns it.
 * Children are frozen before their parent, so a frozen object met on the way
 * is taken as frozen all the way down and not walked again: a new version of
 * a record that shares its unchanged parts with the last one (frozen when it
 * was stored) costs what changed. (Nothing in this code base freezes a
 * record's parts shallowly; a part frozen that way by a caller would keep
 * its children writable.)
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (const item of value) deepFreeze(item);
  } else {
    for (const key in value) deepFreeze(value[key]);
  }
  return Object.freeze(value);
}
