import {
  GraphQLError,
  Kind,
  Lexer,
  NoSchemaIntrospectionCustomRule,
  Source,
  TokenKind,
  parse,
  specifiedRules,
  validate,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../domain/jsonDepth';

/**
 * Bounds on a GraphQL operation, applied by every transport (the HTTP fast
 * path, yoga for GET/SSE, graphql-ws) before any validation work: a hostile
 * document costs at most one bounded lexer pass.
 */
export const OPERATION_LIMITS = {
  /** Characters of a document (the introspection query is ~2,100). */
  maxDocumentChars: 16_384,
  /** Lexical tokens of a document (graphql's own `maxTokens`; the introspection query is ~190). */
  maxTokens: 2_000,
  /** Brackets open at once: `{`, `(`, `[` (the parser recurses once per level). */
  maxNesting: 32,
  /** Deepest selection (the schema itself nests ≤ 6). */
  maxDepth: 10,
  /** Nesting of the variables object, like JSON bodies. */
  maxVariablesDepth: MAX_JSON_DEPTH,
} as const;

const OPENERS = new Set<string>([TokenKind.BRACE_L, TokenKind.PAREN_L, TokenKind.BRACKET_L]);
const CLOSERS = new Set<string>([TokenKind.BRACE_R, TokenKind.PAREN_R, TokenKind.BRACKET_R]);

const tooLarge = (message: string, details: Record<string, number>) => new GraphQLError(message, { extensions: { code: 'QUERY_TOO_LARGE', details } });

/**
 * graphql's `parse` behind three bounds: document size, token count, and
 * bracket nesting (counted on the token stream, so strings and comments are
 * not miscounted). Deep nesting is refused here, naming the limit, instead of
 * reaching the parser's recursion as a RangeError.
 */
export function boundedParse(source: string): DocumentNode {
  const { maxDocumentChars, maxTokens, maxNesting } = OPERATION_LIMITS;
  if (source.length > maxDocumentChars) {
    throw tooLarge(`The document has ${source.length} characters; the limit is ${maxDocumentChars}`, { limit: maxDocumentChars, size: source.length });
  }
  const lexer = new Lexer(new Source(source));
  let depth = 0;
  let tokens = 0;
  for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) {
    if (++tokens > maxTokens) throw tooLarge(`The document has more than ${maxTokens} tokens`, { limit: maxTokens });
    if (OPENERS.has(t.kind) && ++depth > maxNesting) {
      throw new GraphQLError(`The document nests deeper than ${maxNesting} levels`, {
        source: lexer.source,
        positions: [t.start],
        extensions: { code: 'GRAPHQL_PARSE_FAILED', details: { limit: maxNesting } },
      });
    }
    if (CLOSERS.has(t.kind)) depth--;
  }
  return parse(source, { maxTokens });
}

/** Selection depth of an operation, fragments expanded; introspection fields count when asked to. */
function depthOf(node: ASTNode, fragments: Map<string, ASTNode>, seen: Set<string>, countIntrospection: boolean): number {
  const d = (n: ASTNode, s = seen) => depthOf(n, fragments, s, countIntrospection);
  if (node.kind === Kind.FIELD) {
    if (!countIntrospection && node.name.value.startsWith('__')) return 0;
    return node.selectionSet ? 1 + d(node.selectionSet) : 1;
  }
  if (node.kind === Kind.FRAGMENT_SPREAD) {
    const name = node.name.value;
    const frag = fragments.get(name);
    if (!frag || seen.has(name)) return 0;
    return d(frag, new Set([...seen, name]));
  }
  if (node.kind === Kind.SELECTION_SET) return Math.max(0, ...node.selections.map((s) => d(s)));
  if (node.kind === Kind.INLINE_FRAGMENT || node.kind === Kind.FRAGMENT_DEFINITION || node.kind === Kind.OPERATION_DEFINITION) {
    return d(node.selectionSet);
  }
  return 0;
}

/**
 * A validation rule rejecting operations nested deeper than `max`. In
 * production introspection fields count like any other (introspection is
 * refused there anyway); in development they do not, so GraphiQL's own
 * introspection query (depth 13) keeps working.
 */
export function maxDepthRule(max: number, opts: { countIntrospection?: boolean } = {}): ValidationRule {
  return (ctx) => {
    const doc = ctx.getDocument();
    const fragments = new Map<string, ASTNode>();
    for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    for (const def of doc.definitions) {
      if (def.kind !== Kind.OPERATION_DEFINITION) continue;
      const depth = depthOf(def, fragments, new Set(), opts.countIntrospection ?? false);
      if (depth > max) {
        ctx.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${max}`, { nodes: [def], extensions: { code: 'INVALID_REQUEST' } }));
      }
    }
    return {};
  };
}

/** The validation rules of every transport: graphql's own, the depth limit, and in production no introspection. */
export function operationRules(production: boolean): ValidationRule[] {
  return [
    ...specifiedRules,
    maxDepthRule(OPERATION_LIMITS.maxDepth, { countIntrospection: production }),
    ...(production ? [NoSchemaIntrospectionCustomRule] : []),
  ];
}

const SUGGESTION = / ?Did you mean [^?]*\?/g;

/**
 * Production answers do not suggest field, argument, type or enum names
 * ("Did you mean …?"): with introspection off they would publish the schema a
 * typo at a time.
 */
export function withoutSuggestions(e: GraphQLError): GraphQLError {
  const message = e.message.replace(SUGGESTION, '');
  if (message === e.message) return e;
  return new GraphQLError(message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: e.extensions });
}

/** The variables (or extensions) object within the nesting bound; a GraphQLError with INVALID_REQUEST otherwise. */
export function checkRequestObjects(objects: Record<string, unknown>): GraphQLError | null {
  for (const [name, value] of Object.entries(objects)) {
    if (jsonDepthExceeds(value, OPERATION_LIMITS.maxVariablesDepth)) {
      return new GraphQLError(`${name} nests deeper than ${OPERATION_LIMITS.maxVariablesDepth} levels`, {
        extensions: {
          code: 'INVALID_REQUEST',
          details: { issues: [{ path: name, message: `nests deeper than ${OPERATION_LIMITS.maxVariablesDepth} levels` }] },
        },
      });
    }
  }
  return null;
}

/** The codes yoga gives parse and validation errors, unless a rule set its own. */
export function withCode(e: GraphQLError, code: string): GraphQLError {
  if (e.extensions.code) return e;
  return new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: { ...e.extensions, code } });
}

/** A document ready to execute, or the errors that stop it (parse or validation). */
export type CheckedDocument = { document: DocumentNode; errors?: undefined } | { document?: undefined; errors: readonly GraphQLError[] };

/**
 * Bounded parse, then `beforeValidation` (the cost ceiling), then the shared validation rules, as the fast path and the
 * WebSocket server run them (yoga runs the same pieces through its hooks).
 * Anything thrown that is not a GraphQLError (a RangeError, say) is an engine
 * internal and is never shown.
 */
export function parseAndValidate(
  schema: GraphQLSchema,
  source: string,
  rules: readonly ValidationRule[],
  beforeValidation?: (document: DocumentNode) => GraphQLError | null,
): CheckedDocument {
  let document: DocumentNode;
  try {
    document = boundedParse(source);
  } catch (e) {
    return { errors: [withCode(e instanceof GraphQLError ? e : new GraphQLError('The document could not be parsed'), 'GRAPHQL_PARSE_FAILED')] };
  }
  const refused = beforeValidation?.(document);
  if (refused) return { errors: [refused] };
  let errors: readonly GraphQLError[];
  try {
    errors = validate(schema, document, rules);
  } catch (e) {
    // graphql-js's SingleFieldSubscriptionsRule evaluates @include/@skip with no variables and throws
    // ("… variable "$b" which was not provided a runtime value"): the document's fault, a validation error.
    if (!(e instanceof GraphQLError)) throw e;
    errors = [e];
  }
  return errors.length === 0 ? { document } : { errors };
}
