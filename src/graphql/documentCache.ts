import { GraphQLError, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import { boundedParse, operationRules, withCode, withoutSuggestions } from './operationLimits';

/** A query text parsed (bounded), or the error that stopped it (its code set). */
export type ParsedDocument = { document: DocumentNode; error?: undefined } | { document?: undefined; error: GraphQLError };

/** What validation decided about a document: no errors, errors, or an error graphql-js threw from validate(). */
interface Validated {
  errors: readonly GraphQLError[];
  /** graphql-js threw it (SingleFieldSubscriptionsRule meeting @include(if: $var)): yoga answers it as a thrown error. */
  thrown?: boolean;
}

export interface DocumentCache {
  /** boundedParse, once per query text. */
  parse(query: string): ParsedDocument;
  /** Whether this query text was parsed here already (by any transport). */
  has(query: string): boolean;
  /**
   * The shared validation rules (operationRules), once per parsed document;
   * codes set (GRAPHQL_VALIDATION_FAILED unless a rule set its own) and, in
   * production, no "Did you mean" suggestions.
   */
  validate(document: DocumentNode): readonly GraphQLError[];
  /**
   * Yoga's onParse/onValidate hooks (SSE, multipart, forms, application/graphql
   * bodies): the same cache. Yoga's own plugins add `http` to the errors they
   * are given, so they get copies, never the cached objects.
   */
  yogaParse(source: string): DocumentNode;
  yogaValidate(document: DocumentNode): GraphQLError[];
}

const copy = (e: GraphQLError) =>
  new GraphQLError(e.message, {
    nodes: e.nodes,
    source: e.source,
    positions: e.positions,
    path: e.path,
    originalError: e.originalError,
    extensions: { ...e.extensions },
  });

function create(schema: GraphQLSchema, production: boolean): DocumentCache {
  const rules = operationRules(production);
  // Keyed by query text; sized by it too, so a flood of large distinct documents cannot hold more than 8 MiB of keys.
  const parsed = new LRUCache<string, ParsedDocument>({ max: 1_000, maxSize: 8 * 1024 * 1024, sizeCalculation: (_v, k) => k.length + 1 });
  // Documents parsed here are the keys: an entry lives as long as its document does.
  const validated = new WeakMap<DocumentNode, Validated>();

  const parse = (query: string): ParsedDocument => {
    const hit = parsed.get(query);
    if (hit) return hit;
    let p: ParsedDocument;
    try {
      p = { document: boundedParse(query) };
    } catch (e) {
      // Anything thrown that is not a GraphQLError (a RangeError, say) is an engine internal and is never shown.
      p = { error: withCode(e instanceof GraphQLError ? e : new GraphQLError('The document could not be parsed'), 'GRAPHQL_PARSE_FAILED') };
    }
    parsed.set(query, p);
    return p;
  };

  const check = (document: DocumentNode): Validated => {
    let v = validated.get(document);
    if (v) return v;
    try {
      const errors = validate(schema, document, rules);
      v = { errors: errors.map((e) => withCode(production ? withoutSuggestions(e) : e, 'GRAPHQL_VALIDATION_FAILED')) };
    } catch (e) {
      // graphql-js's SingleFieldSubscriptionsRule evaluates @include/@skip with no variables and throws
      // ("… variable "$b" which was not provided a runtime value"): the document's fault, a validation error.
      if (!(e instanceof GraphQLError)) throw e;
      v = { errors: [e], thrown: true };
    }
    validated.set(document, v);
    return v;
  };

  return {
    parse,
    has: (query) => parsed.has(query),
    validate: (document) => {
      const v = check(document);
      return v.thrown ? v.errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) : v.errors;
    },
    yogaParse(source) {
      const p = parse(source);
      if (p.error) throw copy(p.error);
      return p.document;
    },
    yogaValidate(document) {
      const v = check(document);
      if (v.thrown) throw copy(v.errors[0]!);
      return v.errors.map(copy);
    },
  };
}

const caches = new WeakMap<GraphQLSchema, Map<boolean, DocumentCache>>();

/**
 * The one parse and validation cache of a schema (per production flag: the
 * rules differ), shared by the HTTP transports: the fast path and yoga's
 * hooks (SSE and the rest). A query text is parsed once and a document
 * validated once, whichever sees it first. (graphql-ws parses per subscribe
 * with parseAndValidate: its validation errors keep their own code.)
 */
export function documentCache(schema: GraphQLSchema, production: boolean): DocumentCache {
  let bySchema = caches.get(schema);
  if (!bySchema) caches.set(schema, (bySchema = new Map()));
  let c = bySchema.get(production);
  if (!c) bySchema.set(production, (c = create(schema, production)));
  return c;
}
