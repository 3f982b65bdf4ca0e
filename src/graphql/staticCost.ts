import {
  Kind,
  getNamedType,
  getNullableType,
  getOperationAST,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { DEFAULT_FIELD_WEIGHT, fieldCost, type Args, type ListSize } from './fieldCosts';
import { MAX_PAGE } from './types/connection';

/** What `__schema` or `__type` costs, whatever they select (a bounded walk of the schema; development only). */
export const INTROSPECTION_COST = 1_000;

/** Child lists of a connection and the length its first/last gave them. */
interface Sized {
  fields: readonly string[];
  n: number;
}

/**
 * The work an operation asks for, in units of fieldCosts.ts, computed from the
 * document and its variables alone, before anything runs: every field its
 * weight, a list its length times its selection (a page by its first/last,
 * literal or variable), nested, aliases and fragments counted where they are
 * used. Conditional fields (@skip, @include) count as if selected: an upper
 * bound. The document is a validated one.
 */
export function staticCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
  variables?: Readonly<Record<string, unknown>> | null,
): number {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return 0;
  const root = schema.getRootType(operation.operation);
  if (!root) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

  // Variables as execution sees them: the request's, else the operation's defaults.
  const vars: Record<string, unknown> = {};
  for (const def of operation.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    if (variables && Object.hasOwn(variables, name)) vars[name] = variables[name];
    else if (def.defaultValue) vars[name] = literal(def.defaultValue, {});
  }

  // A fragment used in many places is costed once per place kind (enclosing arguments, connection size): a document whose
  // fragments spread each other twice over costs linear time, not exponential.
  const memo = new Map<string, WeakMap<Args, number>>();
  const visiting = new Set<string>();

  const selectionCost = (type: GraphQLNamedType, set: SelectionSetNode, enclosing: Args, sized?: Sized): number => {
    let sum = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        const c = fieldNodeCost(type, s, enclosing);
        sum += sized?.fields.includes(s.name.value) ? c * sized.n : c;
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        const on = s.typeCondition ? (schema.getType(s.typeCondition.name.value) ?? type) : type;
        sum += selectionCost(on, s.selectionSet, enclosing, sized);
      } else {
        const f = fragments.get(s.name.value);
        if (!f || visiting.has(f.name.value)) continue;
        const key = `${f.name.value}|${sized ? `${sized.n}:${sized.fields.join(',')}` : ''}`;
        let byArgs = memo.get(key);
        if (!byArgs) memo.set(key, (byArgs = new WeakMap()));
        let c = byArgs.get(enclosing);
        if (c === undefined) {
          visiting.add(f.name.value);
          c = selectionCost(schema.getType(f.typeCondition.name.value) ?? type, f.selectionSet, enclosing, sized);
          visiting.delete(f.name.value);
          byArgs.set(enclosing, c);
        }
        sum += c;
      }
    }
    return sum;
  };

  const fieldNodeCost = (parent: GraphQLNamedType, node: FieldNode, enclosing: Args): number => {
    const name = node.name.value;
    if (name === '__schema' || name === '__type') return INTROSPECTION_COST;
    if (name === '__typename' || !(isObjectType(parent) || isInterfaceType(parent))) return DEFAULT_FIELD_WEIGHT;
    const def = parent.getFields()[name];
    if (!def) return DEFAULT_FIELD_WEIGHT;
    const spec = fieldCost(parent.name, name);
    const args = argsOf(node, vars);
    const inner = Object.keys(args).length > 0 ? args : enclosing;
    const named = getNamedType(def.type);
    const list = spec.listSize;
    const backward = spec.backwardWeight && (given(args.last) || given(args.before)) ? spec.backwardWeight : 0;
    const weight = (spec.weight ?? DEFAULT_FIELD_WEIGHT) + backward;
    const n = list ? lengthOf(list, args, enclosing) : isListType(getNullableType(def.type)) ? MAX_PAGE : 1;
    if (list?.sizedFields) {
      return weight + (node.selectionSet && isCompositeType(named) ? selectionCost(named, node.selectionSet, inner, { fields: list.sizedFields, n }) : 0);
    }
    const each = node.selectionSet && isCompositeType(named) ? selectionCost(named, node.selectionSet, inner) : 0;
    if (list?.sizedByParent) return weight + each;
    if (!list && n === 1) return weight + each;
    // A list: each item its selection (a list of scalars or enums: each item one unit).
    return weight + n * Math.max(each, DEFAULT_FIELD_WEIGHT);
  };

  return selectionCost(root, operation.selectionSet, {});
}

const given = (v: unknown): boolean => v !== undefined && v !== null;

/** A list's length for these arguments: the largest slicing argument given (within its max), else its assumed size. */
function lengthOf(list: ListSize, args: Args, enclosing: Args): number {
  if (list.sizeOf) return list.sizeOf(args, enclosing);
  const asked = (list.slicingArguments ?? []).map((a) => args[a]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (asked.length === 0) return list.assumedSize;
  return Math.max(0, Math.min(list.max ?? Infinity, Math.ceil(Math.max(...asked))));
}

/** The arguments a field node gives, literals and variables resolved (a value that is neither is only "given": true). */
function argsOf(node: FieldNode, vars: Readonly<Record<string, unknown>>): Args {
  if (!node.arguments?.length) return EMPTY;
  const out: Record<string, unknown> = {};
  for (const a of node.arguments) out[a.name.value] = literal(a.value, vars);
  return out;
}
const EMPTY: Args = Object.freeze({});

function literal(v: ValueNode, vars: Readonly<Record<string, unknown>>): unknown {
  switch (v.kind) {
    case Kind.VARIABLE:
      return vars[v.name.value];
    case Kind.INT:
    case Kind.FLOAT:
      return Number(v.value);
    case Kind.NULL:
      return null;
    case Kind.STRING:
    case Kind.ENUM:
      return v.value;
    default:
      return true;
  }
}
