import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, type ASTNode, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** Rejects `__schema`/`__type` queries (production: the schema is published as schema.graphql instead). */
export function disableIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/** Selection depth of an operation, fragments expanded (introspection fields excluded). */
function depthOf(node: ASTNode, fragments: Map<string, ASTNode>, seen: Set<string>): number {
  if (node.kind === Kind.FIELD) {
    if (node.name.value.startsWith('__')) return 0;
    return node.selectionSet ? 1 + depthOf(node.selectionSet, fragments, seen) : 1;
  }
  if (node.kind === Kind.FRAGMENT_SPREAD) {
    const name = node.name.value;
    const frag = fragments.get(name);
    if (!frag || seen.has(name)) return 0;
    return depthOf(frag, fragments, new Set([...seen, name]));
  }
  if (node.kind === Kind.SELECTION_SET) return Math.max(0, ...node.selections.map((s) => depthOf(s, fragments, seen)));
  if (node.kind === Kind.INLINE_FRAGMENT || node.kind === Kind.FRAGMENT_DEFINITION || node.kind === Kind.OPERATION_DEFINITION) {
    return depthOf(node.selectionSet, fragments, seen);
  }
  return 0;
}

/** A validation rule rejecting operations nested deeper than `max` (the schema's real depth is ≤ 6). */
export function maxDepthRule(max: number): ValidationRule {
  return (ctx) => {
    const doc = ctx.getDocument();
    const fragments = new Map<string, ASTNode>();
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    for (const d of doc.definitions) {
      if (d.kind !== Kind.OPERATION_DEFINITION) continue;
      const depth = depthOf(d, fragments, new Set());
      if (depth > max) {
        ctx.reportError(new GraphQLError(`Query depth ${depth} exceeds the limit of ${max}`, { nodes: [d], extensions: { code: 'INVALID_REQUEST' } }));
      }
    }
    return {};
  };
}

/** Depth limit for every operation. */
export function limitDepth(max: number): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(maxDepthRule(max));
    },
  };
}
