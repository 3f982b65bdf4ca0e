import fc from 'fast-check';
import {
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/**
 * fast-check arbitraries of whole GraphQL requests, built from a schema by
 * walking its types: for each root field of Query, Mutation
 * and Subscription, a selection set over its output types (bounded depth,
 * some fields of each object, inline fragments on interfaces and unions,
 * named fragments, aliases, directives), arguments as inline literals or as
 * variables of declared types, and values of the right type (valid enums,
 * ids that are real or only look real, strings, ints within and beyond 32
 * bits, input objects with their required fields present) and of wrong types
 * (null for non-null, missing required input fields, unknown input fields,
 * floats for ints, strings for enums, objects for scalars). Now and then the
 * request is wrong on purpose: an unknown field or argument, a variable
 * declared with another type or never sent, a fragment on the wrong type, two
 * anonymous operations, a truncated document, more root fields than allowed.
 *
 * The documents are assembled from tokens with placeholders (variables,
 * fragments, aliases) numbered when rendered, so every part is an ordinary
 * arbitrary and shrinks as one.
 */

/** Real values the service knows (wallet and intent ids, user ids), mixed into generated ids and strings. */
export interface Pools {
  ids: readonly string[];
  userIds: readonly string[];
}

export interface GeneratedRequest {
  operationType: 'query' | 'mutation' | 'subscription';
  /** Root fields selected (schema names; unknown ones as written). */
  rootFields: string[];
  query: string;
  variables: Record<string, unknown>;
  operationName?: string;
}

interface VarSlot {
  kind: 'var';
  /** The declared type as written (`ID!`, `[Asset!]`, maybe a wrong or unknown one). */
  declared: string;
  /** GraphQL literal text of a default value, if declared with one. */
  defaultValue?: string;
  /** The value sent in `variables`; `undefined`: the variable is left out. */
  value: unknown;
}
interface FragSlot {
  kind: 'frag';
  on: string;
  body: Token[];
}
interface AliasSlot {
  kind: 'alias';
}
type Token = string | VarSlot | FragSlot | AliasSlot;

const ALIAS: AliasSlot = { kind: 'alias' };
const OMITTED = Symbol('omitted');

// ---------------------------------------------------------------------------------------------
// Values

/** Hostile JSON values: every JSON type, extreme numbers, prototype keys, unicode, nesting. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.constantFrom(
      null,
      true,
      false,
      0,
      -0,
      1e308,
      -1e308,
      5e-324,
      2 ** 53 + 1,
      2 ** 31,
      -(2 ** 31) - 1,
      '',
      ' ',
      '0',
      '-1',
      '1e999',
      'NaN',
      '__proto__',
      'constructor',
      'null',
    ),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 10 }),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(
      fc.oneof(fc.constantFrom('__proto__', 'constructor', 'userId', 'walletId', 'amount', 'action', 'chain'), fc.string({ maxLength: 8 })),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

const hex32 = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('hex'));
const weirdStrings = fc.constantFrom(
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%00',
  '\u0000',
  'a'.repeat(600),
  'DROP TABLE wallets;--',
  '${jndi:x}',
  '💸',
  'null',
  'undefined',
  '__proto__',
);

function idArb(pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof(
    ...(pools.ids.length ? [{ weight: 10, arbitrary: fc.constantFrom(...pools.ids) }] : []),
    { weight: 2, arbitrary: hex32.map((h) => `svc_wallet_${h}`) },
    { weight: 2, arbitrary: hex32.map((h) => `intent_${h}`) },
    { weight: 1, arbitrary: hex32.map((h) => `svc_wallet_${h.slice(0, 7)}`) },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.integer() },
    { weight: 1, arbitrary: weirdStrings },
  );
}

const decimalString = fc.oneof(
  fc.constantFrom('1', '0.5', '0.000001', '10.5', '0', '-1', '1e3', '1.0000000000000000001', '999999999999999999999', '.5', '5.', ' 1', 'abc', '0x10', '1,5'),
  fc.tuple(fc.nat({ max: 1_000_000 }), fc.nat({ max: 999_999 })).map(([a, b]) => `${a}.${b}`),
);

function stringArb(argName: string, pools: Pools): fc.Arbitrary<unknown> {
  const general = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
    { weight: 1, arbitrary: weirdStrings },
  );
  switch (argName) {
    case 'userId':
      return fc.oneof(
        ...(pools.userIds.length ? [{ weight: 4, arbitrary: fc.constantFrom(...pools.userIds) }] : []),
        { weight: 2, arbitrary: fc.stringMatching(/^fuzz-[a-z0-9]{1,8}$/) },
        { weight: 2, arbitrary: general },
      );
    case 'amount':
      return fc.oneof({ weight: 4, arbitrary: decimalString }, { weight: 1, arbitrary: general });
    case 'email':
      return fc.oneof({ weight: 3, arbitrary: fc.emailAddress() }, { weight: 1, arbitrary: general });
    case 'after':
      return fc.oneof({ weight: 2, arbitrary: fc.base64String({ maxLength: 40 }) }, { weight: 1, arbitrary: general });
    default:
      return general;
  }
}

function intArb(argName: string): fc.Arbitrary<unknown> {
  const special = argName === 'minutes' ? [0, 1, 60, 1440, 1441, -1] : [0, 1, 5, 20, 100, 101, -1];
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...special) }, { weight: 2, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) });
}

/** Ints a GraphQL Int cannot hold, and other things that are not ints. */
const notAnInt = fc.oneof(
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, 1e308, -1e308, 1.5, '12', '', true),
  fc.integer({ min: 2 ** 31, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true, noInteger: true }),
);

interface ValueArbs {
  valid(type: GraphQLInputType, name: string): fc.Arbitrary<unknown>;
  wrong(type: GraphQLInputType, name: string): fc.Arbitrary<unknown>;
  any(type: GraphQLInputType, name: string): fc.Arbitrary<unknown>;
}

function valueArbs(pools: Pools, hints: Readonly<Record<string, fc.Arbitrary<unknown>>>): ValueArbs {
  const valid = (type: GraphQLInputType, name: string): fc.Arbitrary<unknown> => {
    if (isNonNullType(type)) return validNullable(type.ofType, name);
    const inner = validNullable(type, name);
    return fc.oneof({ weight: 12, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) });
  };
  const validNullable = (type: GraphQLInputType, name: string): fc.Arbitrary<unknown> => {
    if (isNonNullType(type)) return valid(type, name);
    const hint = !isListType(type) ? hints[type.name] : undefined;
    if (hint) return fc.oneof({ weight: 2, arbitrary: hint }, { weight: 1, arbitrary: fromSchema(type, name) });
    return fromSchema(type, name);
  };
  const fromSchema = (type: GraphQLInputType, name: string): fc.Arbitrary<unknown> => {
    if (isNonNullType(type)) return valid(type, name);
    if (isListType(type)) {
      const item = valid(type.ofType as GraphQLInputType, name);
      // A single value where a list is expected is coerced to a list of one.
      return fc.oneof({ weight: 3, arbitrary: fc.array(item, { maxLength: 3 }) }, { weight: 1, arbitrary: item });
    }
    if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const f of fields)
        shape[f.name] = isNonNullType(f.type)
          ? valid(f.type, f.name)
          : fc.oneof({ weight: 4, arbitrary: validNullable(f.type, f.name) }, { weight: 1, arbitrary: fc.constant(null) });
      const requiredKeys = fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name);
      return fc.record(shape, { requiredKeys });
    }
    switch (type.name) {
      case 'ID':
        return idArb(pools);
      case 'String':
        return stringArb(name, pools);
      case 'Int':
        return intArb(name);
      case 'Float':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return fc.boolean();
      case 'DateTime':
        return fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((d) => d.toISOString());
      default:
        // JSON and any custom scalar: any JSON value is a value of it.
        return hostileJson;
    }
  };
  const wrong = (type: GraphQLInputType, name: string): fc.Arbitrary<unknown> => {
    if (isNonNullType(type)) return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: wrong(type.ofType, name) });
    if (isListType(type)) {
      const of = type.ofType as GraphQLInputType;
      return fc.oneof(
        fc.array(wrong(of, name), { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(valid(of, name), { maxLength: 2 }), { minLength: 1, maxLength: 2 }),
        fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
      );
    }
    if (isEnumType(type)) {
      const names = type.getValues().map((v) => v.name);
      return fc.oneof(
        fc.constantFrom(...names.map((n) => n.toLowerCase()), ...names.map((n) => ` ${n}`), 'NOT_A_VALUE', '', 'base-sepolia', 'usdc'),
        fc.integer({ min: 0, max: names.length }),
        fc.boolean(),
        fc.dictionary(fc.constantFrom(...names), fc.boolean(), { minKeys: 1, maxKeys: 2 }),
      );
    }
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const base = validNullable(type, name) as fc.Arbitrary<Record<string, unknown>>;
      const required = fields.filter((f) => isNonNullType(f.type)).map((f) => f.name);
      const variants: fc.Arbitrary<unknown>[] = [
        // an unknown field
        fc.tuple(base, fc.constantFrom('bogus', 'userID', 'wallet_id', '__proto__', 'constructor'), hostileJson).map(([o, k, v]) => ({ ...o, [k]: v })),
        // one field of the wrong type
        fc.oneof(...fields.map((f) => fc.tuple(base, wrong(f.type, f.name)).map(([o, v]) => ({ ...o, [f.name]: v })))),
        // not an object
        fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.array(base, { minLength: 1, maxLength: 2 })),
      ];
      // a required field missing
      if (required.length)
        variants.push(fc.tuple(base, fc.constantFrom(...required)).map(([o, k]) => Object.fromEntries(Object.entries(o).filter(([key]) => key !== k))));
      return fc.oneof(...variants);
    }
    switch (type.name) {
      case 'ID':
        return fc.oneof(
          fc.boolean(),
          fc.double({ noNaN: true, noDefaultInfinity: true, noInteger: true }),
          fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }),
          fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
        );
      case 'String':
        return fc.oneof(
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.boolean(),
          fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 2 }),
          fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
        );
      case 'Int':
        return fc.oneof(notAnInt, fc.array(fc.integer(), { minLength: 1, maxLength: 2 }), fc.constant({}));
      case 'Float':
        return fc.oneof(fc.constantFrom('1.5', '', 'NaN', true), fc.array(fc.double({ noNaN: true }), { minLength: 1, maxLength: 2 }), fc.constant({ v: 1 }));
      case 'Boolean':
        return fc.constantFrom('true', 'false', 0, 1, '', [], {});
      case 'DateTime':
        return fc.oneof(fc.constantFrom('yesterday', '', '2024-13-45T99:00:00Z', 0), fc.integer());
      default:
        return hostileJson;
    }
  };
  const any = (type: GraphQLInputType, name: string) => fc.oneof({ weight: 4, arbitrary: valid(type, name) }, { weight: 1, arbitrary: wrong(type, name) });
  return { valid, wrong, any };
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const asName = (k: string) => {
  const s = k.replace(/[^_0-9A-Za-z]/g, '_');
  return s === '' ? '_' : /^[0-9]/.test(s) ? `_${s}` : s;
};

/**
 * A JSON value as a GraphQL literal in the position of `type`: enum values
 * bare (quoted when `quoteEnums`, which is wrong), object keys made names,
 * everything else as JSON writes it (a valid GraphQL literal of its kind).
 */
export function printLiteral(value: unknown, type: GraphQLInputType | undefined, quoteEnums = false): string {
  const named = type ? getNamedType(type) : undefined;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    if (named && isEnumType(named) && !quoteEnums && NAME.test(value) && !['true', 'false', 'null'].includes(value)) return value;
    return JSON.stringify(value);
  }
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : '0';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const of = type && isNonNullType(type) ? type.ofType : type;
    const item = of && isListType(of) ? (of.ofType as GraphQLInputType) : of;
    return `[${value.map((v) => printLiteral(v, item, quoteEnums)).join(', ')}]`;
  }
  if (typeof value === 'object') {
    const fields = named && isInputObjectType(named) ? named.getFields() : undefined;
    const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${asName(k)}: ${printLiteral(v, fields?.[k]?.type, quoteEnums)}`);
    return `{${entries.join(', ')}}`;
  }
  return JSON.stringify(String(value));
}

// ---------------------------------------------------------------------------------------------
// Documents

const WRONG_DECLARED_TYPES = [
  'String',
  'String!',
  'ID',
  'ID!',
  'Int',
  'Int!',
  'Float',
  'Boolean!',
  '[ID!]',
  '[[String]]',
  'Asset',
  'Chain!',
  'CreateWalletInput',
  'CreateIntentInput!',
  'JSON',
  'NoSuchType',
  'Wallet',
];

export interface RequestArbitraryOptions {
  /** Deepest selection generated below a root field (the schema nests ≤ 6). */
  maxDepth?: number;
  /**
   * Values the service's own rules accept, by input type or enum name, drawn
   * two times in three instead of the schema-only ones (which a service
   * refuses more often than not: unsupported chains, rules across fields), so
   * that mutations really run.
   */
  hints?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Relative weight of a root field among its type's (default 1). */
  rootFieldWeight?: (name: string) => number;
  /** Scales how often a part is malformed on purpose (1: a few parts in 1,000 per field, 4% per operation). */
  mischief?: number;
}

function typeString(t: GraphQLInputType): string {
  return String(t);
}

/**
 * Arbitrary of requests to `schema`'s root fields; `pools` are real values to
 * mix in. Weights: queries 10, mutations 6, subscriptions 1.
 */
export function graphqlRequestArbitrary(schema: GraphQLSchema, pools: Pools, o: RequestArbitraryOptions = {}): fc.Arbitrary<GeneratedRequest> {
  const maxDepth = o.maxDepth ?? 5;
  const m = o.mischief ?? 1;
  const values = valueArbs(pools, o.hints ?? {});
  /** Usually `nothing`, `perMille` × `mischief` times in 1,000 one of `bad`. */
  const rarely = <T>(nothing: T, perMille: number, ...bad: fc.Arbitrary<T>[]): fc.Arbitrary<T> => {
    const w = Math.min(1000, Math.round(perMille * m));
    return fc.oneof({ weight: 1000 - w, arbitrary: fc.constant(nothing) }, { weight: w, arbitrary: fc.oneof(...bad) });
  };

  // --- arguments -------------------------------------------------------------------------------
  const literalOf = (type: GraphQLInputType, name: string, pick: 'valid' | 'any'): fc.Arbitrary<string> =>
    fc.tuple(values[pick](type, name), fc.integer({ min: 0, max: 19 })).map(([v, r]) => printLiteral(v, type, r === 0));

  const variableOf = (type: GraphQLInputType, name: string): fc.Arbitrary<VarSlot> => {
    const declared = fc.oneof(
      { weight: 60, arbitrary: fc.constant(typeString(type)) },
      { weight: 2, arbitrary: fc.constantFrom(...WRONG_DECLARED_TYPES) },
      { weight: 1, arbitrary: fc.constant(typeString(type).replace(/!$/, '')) },
    );
    const defaultValue = isNonNullType(type)
      ? fc.constant(undefined)
      : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: literalOf(type, name, 'any') });
    const value = fc.oneof({ weight: 12, arbitrary: values.any(type, name) }, { weight: 1, arbitrary: fc.constant(OMITTED) });
    return fc.record({ declared, defaultValue, value }).map((r) => ({
      kind: 'var' as const,
      declared: r.declared,
      ...(r.defaultValue === undefined ? {} : { defaultValue: r.defaultValue }),
      value: r.value === OMITTED ? undefined : r.value,
    }));
  };

  const argOf = (arg: GraphQLArgument): fc.Arbitrary<Token[] | null> => {
    const optional = !isNonNullType(arg.type) || arg.defaultValue !== undefined;
    const literal = literalOf(arg.type, arg.name, 'any').map((text): Token[] => [`${arg.name}: ${text}`]);
    const variable = variableOf(arg.type, arg.name).map((v): Token[] => [`${arg.name}: `, v]);
    return fc.oneof({ weight: optional ? 12 : 1, arbitrary: fc.constant(null) }, { weight: 16, arbitrary: literal }, { weight: 16, arbitrary: variable });
  };

  const argsOf = (field: GraphQLField<unknown, unknown>): fc.Arbitrary<Token[]> => {
    const extra = rarely<Token[] | null>(
      null,
      15,
      fc.constant(['bogus: 1']),
      fc.constant(['first: "ten"']),
      fc.tuple(fc.constantFrom('unknownArg', 'userID', 'where'), hostileJson).map(([k, v]) => [`${k}: ${printLiteral(v, undefined)}`]),
    );
    return fc.tuple(fc.tuple(...field.args.map(argOf)), extra).map(([args, x]) => {
      const present = [...args, x].filter((a): a is Token[] => a !== null);
      if (present.length === 0) return [];
      return ['(', ...present.flatMap((a, i) => (i === 0 ? a : [', ', ...a])), ')'];
    });
  };

  // --- selections ------------------------------------------------------------------------------
  const isLeafField = (f: GraphQLField<unknown, unknown>) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type));
  const directive = rarely<Token[]>(
    [],
    8,
    fc.constantFrom<Token[]>([' @include(if: true)'], [' @skip(if: true)'], [' @include(if: false)'], [' @deprecated'], [' @nope']),
    fc.boolean().map((b): Token[] => [' @include(if: ', { kind: 'var', declared: 'Boolean!', value: b }, ')']),
  );

  const fieldCache = new Map<string, fc.Arbitrary<Token[]>>();
  const fieldOf = (field: GraphQLField<unknown, unknown>, depth: number, owner: string): fc.Arbitrary<Token[]> => {
    const key = `${owner}.${field.name}@${depth}`;
    const hit = fieldCache.get(key);
    if (hit) return hit;
    const named = getNamedType(field.type);
    const alias = fc.oneof(
      { weight: 40, arbitrary: fc.constant<Token[]>([]) },
      { weight: 5, arbitrary: fc.constant<Token[]>([ALIAS]) },
      { weight: 1, arbitrary: fc.constant<Token[]>(['same: ']) },
    );
    // A composite field without a selection, or a leaf with one, is wrong now and then.
    const sub: fc.Arbitrary<Token[]> = isCompositeType(named)
      ? fc.oneof({ weight: 1000 - 3 * m, arbitrary: selectionOf(named, depth + 1) }, { weight: 3 * m, arbitrary: fc.constant<Token[]>([]) })
      : rarely<Token[]>([], 2, fc.constant<Token[]>(['{ id }']));
    const arb = fc
      .tuple(alias, field.args.length ? argsOf(field) : rarely<Token[]>([], 2, fc.constant<Token[]>(['(bogus: 1)'])), directive, sub)
      .map(([a, args, d, s]): Token[] => [...a, field.name, ...args, ...d, ...(s.length ? [' ', ...s] : [])]);
    fieldCache.set(key, arb);
    return arb;
  };

  const selectionCache = new Map<string, fc.Arbitrary<Token[]>>();
  const selectionOf = (type: GraphQLCompositeType, depth: number): fc.Arbitrary<Token[]> => {
    const key = `${type.name}@${depth}`;
    const hit = selectionCache.get(key);
    if (hit) return hit;
    const fields = isUnionType(type) ? [] : Object.values(type.getFields()).filter((f) => depth < maxDepth || isLeafField(f));
    const pickFields = fc
      .tuple(...fields.map((f) => fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fieldOf(f, depth, type.name) })))
      .map((picked) => picked.filter((p): p is Token[] => p !== null));
    const fallback: Token[] = fields.find(isLeafField) ? [fields.find(isLeafField)!.name] : ['__typename'];
    const possible = isObjectType(type) ? [] : (schema.getPossibleTypes(type) as GraphQLObjectType[]);
    // Interfaces and unions: inline fragments on some of the types that implement them.
    const fragments = fc
      .tuple(
        ...possible.map((t) =>
          fc.oneof(
            { weight: 1, arbitrary: fc.constant(null) },
            { weight: 1, arbitrary: selectionOf(t, depth).map((sel): Token[] => [`... on ${t.name} `, ...sel]) },
          ),
        ),
      )
      .map((picked) => picked.filter((p): p is Token[] => p !== null));
    const leafSel = fc.constant<Token[]>(['{ ', fallback[0]!, ' }']);
    const extras = rarely<Token[] | null>(
      null,
      40,
      fc.constant<Token[]>(['__typename']),
      fc.constantFrom<Token[]>(['noSuchField'], ['id(bogus: 1)'], ['... on NoSuchType { id }']),
      leafSel.map((s): Token[] => [`... on ${type.name} `, ...s]),
      leafSel.map((s): Token[] => [{ kind: 'frag', on: type.name, body: s }]),
      fc.constant<Token[]>([{ kind: 'frag', on: type.name === 'Wallet' ? 'Intent' : 'Wallet', body: ['{ id }'] }]),
    );
    const arb = fc.tuple(pickFields, fragments, extras).map(([picked, frags, x]): Token[] => {
      const parts = [...picked, ...frags, ...(x ? [x] : [])];
      if (parts.length === 0) parts.push(fallback);
      return ['{ ', ...parts.flatMap((p, i) => (i === 0 ? p : [' ', ...p])), ' }'];
    });
    // Now and then the whole selection goes into a named fragment spread.
    const spread = rarely<boolean>(false, 30, fc.constant(true));
    const out = fc.tuple(arb, spread).map(([sel, asFragment]): Token[] => (asFragment ? ['{ ', { kind: 'frag', on: type.name, body: sel }, ' }'] : sel));
    selectionCache.set(key, out);
    return out;
  };

  // --- operations ------------------------------------------------------------------------------
  const rootFieldOf = (root: GraphQLObjectType, kind: GeneratedRequest['operationType']): fc.Arbitrary<{ name: string; tokens: Token[] }> => {
    const fields = Object.values(root.getFields());
    const named = fields.map((f) => ({
      weight: o.rootFieldWeight?.(f.name) ?? 1,
      arbitrary: fieldOf(f, 0, root.name).map((tokens) => ({ name: f.name, tokens })),
    }));
    const odd: fc.Arbitrary<{ name: string; tokens: Token[] }>[] = [
      fc.constant({ name: 'noSuchRootField', tokens: ['noSuchRootField { id }'] }),
      fc.constant({ name: '__typename', tokens: ['__typename'] }),
    ];
    if (kind === 'query')
      odd.push(
        fc.constant({ name: '__schema', tokens: ['__schema { queryType { name } types { name kind } }'] }),
        fc.constant({ name: '__type', tokens: ['__type(name: "Intent") { name fields { name } }'] }),
      );
    const w = Math.round(30 * m);
    return fc.oneof({ weight: 1000 - w, arbitrary: fc.oneof(...named) }, { weight: w, arbitrary: fc.oneof(...odd) });
  };

  const opOf = (kind: GeneratedRequest['operationType'], root: GraphQLObjectType): fc.Arbitrary<GeneratedRequest> => {
    const field = rootFieldOf(root, kind);
    // Mostly one root field, sometimes two or three; a subscription with two is wrong; now and then 21, one over the limit.
    const many = fc.oneof(
      { weight: 60, arbitrary: fc.tuple(field) },
      { weight: kind === 'subscription' ? 1 : 20, arbitrary: fc.tuple(field, field) },
      { weight: kind === 'subscription' ? 0 : 10, arbitrary: fc.tuple(field, field, field) },
      { weight: 1, arbitrary: field.map((f) => Array.from({ length: 21 }, () => f)) },
    );
    const name = fc.oneof(
      { weight: 2, arbitrary: fc.constant<string | undefined>(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('Fuzz', 'Op', 'query', 'q1') },
    );
    const mischief = rarely<'none' | 'truncate' | 'twoOps' | 'unusedVar' | 'wrongName' | 'unusedFragment' | 'duplicateFragment'>(
      'none',
      40,
      fc.constantFrom('truncate', 'twoOps', 'unusedVar', 'wrongName', 'unusedFragment', 'duplicateFragment'),
    );
    return fc.tuple(many, name, mischief, fc.nat()).map(([fields, opName, bad, cut]) => {
      // A root field selected again gets an alias (unless it has one): 21 copies are 21 root fields, not a conflict.
      const aliased = (f: { tokens: Token[] }) => f.tokens[0] === ALIAS || f.tokens[0] === 'same: ';
      const roots: Token[] = fields.flatMap((f, i) => [
        ...(i > 0 && !aliased(f) && fields.slice(0, i).some((g) => g.name === f.name) ? [ALIAS] : []),
        ...f.tokens,
        ' ',
      ]);
      const rendered = render(roots);
      if (bad === 'unusedVar') rendered.defs.push('$unused: Int');
      if (bad === 'unusedFragment') rendered.fragments.push('fragment Unused on Wallet { id }');
      if (bad === 'duplicateFragment' && rendered.fragments.length) rendered.fragments.push(rendered.fragments[0]!);
      const header = `${kind}${opName ? ` ${opName}` : ''}${rendered.defs.length ? `(${rendered.defs.join(', ')})` : ''}`;
      let query = [`${header} { ${rendered.text}}`, ...rendered.fragments].join('\n');
      if (bad === 'twoOps') query += '\nquery { __typename }';
      if (bad === 'truncate') query = query.slice(0, cut % Math.max(1, query.length));
      const operationName = bad === 'wrongName' ? 'NoSuchOperation' : opName;
      return { operationType: kind, rootFields: fields.map((f) => f.name), query, variables: rendered.variables, ...(operationName ? { operationName } : {}) };
    });
  };

  const kinds: { weight: number; arbitrary: fc.Arbitrary<GeneratedRequest> }[] = [];
  const q = schema.getQueryType();
  const mu = schema.getMutationType();
  const s = schema.getSubscriptionType();
  if (q) kinds.push({ weight: 10, arbitrary: opOf('query', q) });
  if (mu) kinds.push({ weight: 6, arbitrary: opOf('mutation', mu) });
  if (s) kinds.push({ weight: 1, arbitrary: opOf('subscription', s) });
  return fc.oneof(...kinds);
}

/** Numbers the placeholders: variables `$v0…` (declared and sent), fragments `F0…` (defined once each), aliases `a0…`. */
function render(tokens: Token[]): { text: string; defs: string[]; variables: Record<string, unknown>; fragments: string[] } {
  const defs: string[] = [];
  const variables: Record<string, unknown> = {};
  const fragments: string[] = [];
  let aliases = 0;
  const walk = (ts: Token[]): string =>
    ts
      .map((t) => {
        if (typeof t === 'string') return t;
        if (t.kind === 'alias') return `a${aliases++}: `;
        if (t.kind === 'var') {
          const name = `v${defs.length}`;
          defs.push(`$${name}: ${t.declared}${t.defaultValue === undefined ? '' : ` = ${t.defaultValue}`}`);
          if (t.value !== undefined) variables[name] = t.value;
          return `$${name}`;
        }
        const name = `F${fragments.length}`;
        fragments.push(''); // reserve the number before the body takes others
        const index = fragments.length - 1;
        fragments[index] = `fragment ${name} on ${t.on} ${walk(t.body)}`;
        return `...${name}`;
      })
      .join('');
  const text = walk(tokens);
  return { text, defs, variables, fragments };
}
