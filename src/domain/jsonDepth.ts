/** Deepest nesting accepted in a JSON body or in GraphQL variables (docs/decisions.md: request bounds). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a parsed JSON value nests deeper than `max` (a scalar is depth 0,
 * `{}` or `[]` depth 1). Iterative, with an early exit, so a hostile
 * 10,000-deep document costs a walk down one branch and never the stack.
 */
export function jsonDepthExceeds(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
