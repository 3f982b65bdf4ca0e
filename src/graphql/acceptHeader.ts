/**
 * The one Accept parser of /graphql, matching as graphql-yoga's result
 * processors match (getMediaTypesForRequestInOrder + isMatchingMediaType):
 * media types lowercased, wildcards on the asking side, utf-8 the only
 * charset (an entry naming another counts for nothing), q not read. The HTTP
 * handler, the fast path and the yoga plugins all ask it, so they cannot
 * disagree with each other or with yoga about what a request accepts.
 */
function askedTypes(accept: string | null | undefined): string[] {
  // Headers trims values: an Accept of only spaces is no Accept.
  return (accept?.trim() || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .filter((entry) => {
      const params = entry.split(';').slice(1);
      return (params.find((p) => p.includes('charset=')) ?? 'charset=utf-8') === 'charset=utf-8';
    })
    .map((entry) => entry.split(';')[0]!);
}

/** Whether the asked media type (maybe with wildcards) matches `type`. */
function matches(type: string, asked: string): boolean {
  const [pre, suf] = type.split('/');
  const [askedPre, askedSuf] = asked.split('/');
  return (askedPre === '*' || askedPre === pre) && (askedSuf === '*' || askedSuf === suf);
}

/** Whether an Accept header names one of `types`; no Accept (or an empty one) accepts anything. */
export function acceptsAnyOf(accept: string | null | undefined, types: readonly string[]): boolean {
  return askedTypes(accept).some((a) => types.some((t) => matches(t, a)));
}

/** Whether an Accept header names `type` itself (no wildcard, no default: a client asking for it). */
export function namesType(accept: string | null | undefined, type: string): boolean {
  return !!accept?.trim() && askedTypes(accept).includes(type);
}

/** The answer types yoga serves. */
export const YOGA_ANSWER_TYPES = ['application/graphql-response+json', 'application/json', 'text/event-stream', 'multipart/mixed'] as const;

/** The JSON answer types of GraphQL over HTTP. */
export type AnswerType = 'application/json' | 'application/graphql-response+json';

const REGULAR_TYPES: readonly AnswerType[] = ['application/graphql-response+json', 'application/json'];

/**
 * The answer a query or mutation gets, by yoga's rule (useResultProcessors):
 * Accept entries in reverse order, processors SSE, multipart, then the JSON
 * pair, the last match winning. `stream` when SSE or multipart wins (yoga
 * serves those); null when nothing matches (the handler then answers JSON).
 */
export function answerType(accept: string | null | undefined): AnswerType | 'stream' | null {
  const key = accept ?? '';
  const known = answerTypes.get(key);
  if (known !== undefined) return known;
  const type = answerTypeOf(accept);
  // Clients send a handful of distinct Accept headers: remember them (a bounded number).
  if (answerTypes.size >= 256) answerTypes.clear();
  answerTypes.set(key, type);
  return type;
}

const answerTypes = new Map<string, AnswerType | 'stream' | null>();

function answerTypeOf(accept: string | null | undefined): AnswerType | 'stream' | null {
  const asked = askedTypes(accept).reverse();
  if (asked.some((a) => REGULAR_TYPES.some((t) => matches(t, a)))) {
    let chosen: AnswerType = 'application/json';
    for (const a of asked) for (const t of REGULAR_TYPES) if (matches(t, a)) chosen = t;
    return chosen;
  }
  return asked.some((a) => matches('text/event-stream', a) || matches('multipart/mixed', a)) ? 'stream' : null;
}
