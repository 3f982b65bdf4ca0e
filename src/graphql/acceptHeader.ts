/**
 * Whether an Accept header names one of `types`, matched as graphql-yoga
 * matches it (its result processors): wildcards on the asking side, utf-8 the
 * only charset; no Accept (or an empty one) accepts anything. The HTTP
 * handler and the yoga plugins ask this one question, so they cannot disagree
 * with each other or with yoga about what a request accepts.
 */
export function acceptsAnyOf(accept: string | null | undefined, types: readonly string[]): boolean {
  if (accept === undefined || accept === null || accept.trim() === '') return true;
  return accept
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .some((entry) => {
      const [type = '', ...params] = entry.split(';');
      if ((params.find((p) => p.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') return false;
      const [pre, suf] = type.split('/');
      return types.some((t) => {
        const [tp, ts] = t.split('/');
        return (pre === '*' || pre === tp) && (suf === '*' || suf === ts);
      });
    });
}

/** The answer types yoga serves. */
export const YOGA_ANSWER_TYPES = ['application/graphql-response+json', 'application/json', 'text/event-stream', 'multipart/mixed'] as const;
