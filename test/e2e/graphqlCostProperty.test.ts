import fc from 'fast-check';
import { getNamedType, isInterfaceType, isLeafType, isNonNullType, isObjectType, parse, type GraphQLField, type GraphQLNamedType } from 'graphql';
import { startTestServer, type Json, type TestAccount, type TestServer } from '../helpers/server';
import { buildSchema } from '../../src/graphql/schema';
import { staticCost } from '../../src/graphql/staticCost';
import { MAX_OPERATION_COST } from '../../src/graphql/operationCost';
import { seedStandingIntents } from '../helpers/standingSeed';

/**
 * The property of issue 41: whatever an operation selects (aliases, nesting,
 * page sizes), it is either refused before it runs, or what it resolves stays
 * within what its computed cost allows: no more fields than its cost, no
 * longer than TIME_BASE_MS plus MS_PER_UNIT per unit. Operations are drawn
 * over the schema from the reads an API key may make, on an account with
 * standing intents and decisions.
 */
const RUNS = Number(process.env.GRAPHQL_COST_RUNS ?? 40);
/** A request's fixed time (HTTP, admission, the store's first reads) on a busy test machine. */
const TIME_BASE_MS = 500;
/** What one unit may take at most: a 50,000-unit operation, 2.5 s beyond the base (generous for a shared machine; the unit is ~1 µs). */
const MS_PER_UNIT = 0.05;

let srv: TestServer;
let acct: TestAccount;
let walletId: string;
let standingId: string;
beforeAll(async () => {
  srv = await startTestServer();
  acct = await srv.admin.createAccount({ plan: 'enterprise' });
  const wallet = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'prop-owner' } });
  walletId = wallet.body.id;
  const standing = await srv.rest('POST', '/v1/standing-intents', { key: acct.key, body: { walletId, asset: 'USDC' } });
  standingId = standing.body.id;
  await seedStandingIntents(srv.service.deps.store, acct.accountId, 10, 10);
}, 120_000);
afterAll(() => srv?.stop());

/** A field of a generated selection: its name, how many aliases select it, its arguments and its own selection. */
interface Pick {
  name: string;
  aliases: number;
  args: string;
  children: Pick[];
}

const schema = buildSchema();
const MAX_DEPTH = 5;
const usable = (f: GraphQLField<unknown, unknown>) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined);

/** Page sizes and bounded lengths: absent (the default) or 1 to the most the argument takes. */
function argsArb(f: GraphQLField<unknown, unknown>): fc.Arbitrary<string> {
  if (f.args.some((a) => a.name === 'first'))
    return fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }).map((n) => (n === undefined ? '' : `(first: ${n})`));
  if (f.name === 'history') return fc.option(fc.integer({ min: 1, max: 1_440 }), { nil: undefined }).map((n) => (n === undefined ? '' : `(minutes: ${n})`));
  return fc.constant('');
}

const selections = new Map<string, fc.Arbitrary<Pick[]>>();
/** Some fields of `type` (1 to 4), each under 1 to 3 aliases, nested to MAX_DEPTH. */
function selectionArb(type: GraphQLNamedType, depth: number): fc.Arbitrary<Pick[]> {
  const key = `${type.name}@${depth}`;
  const hit = selections.get(key);
  if (hit) return hit;
  let arb: fc.Arbitrary<Pick[]>;
  if (!(isObjectType(type) || isInterfaceType(type))) {
    arb = fc.constant([{ name: '__typename', aliases: 1, args: '', children: [] }]);
  } else {
    const fields = Object.values(type.getFields()).filter((f) => usable(f) && (depth < MAX_DEPTH || isLeafType(getNamedType(f.type))));
    const picks = fields.map((f) => pickArb(f, depth));
    arb =
      picks.length === 0
        ? fc.constant([{ name: '__typename', aliases: 1, args: '', children: [] }])
        : fc.uniqueArray(fc.oneof(...picks), { minLength: 1, maxLength: 4, selector: (p) => p.name });
  }
  selections.set(key, arb);
  return arb;
}

function pickArb(f: GraphQLField<unknown, unknown>, depth: number): fc.Arbitrary<Pick> {
  const named = getNamedType(f.type);
  const children = isLeafType(named) ? fc.constant([] as Pick[]) : fc.constant(null).chain(() => selectionArb(named, depth + 1));
  return fc.record({ name: fc.constant(f.name), aliases: fc.integer({ min: 1, max: 3 }), args: argsArb(f), children });
}

/** The reads of an API key, with the arguments they need. */
const roots = (): fc.Arbitrary<Pick>[] => {
  const q = schema.getQueryType()!.getFields();
  const root = (name: string, args: fc.Arbitrary<string>) =>
    fc.record({ name: fc.constant(name), aliases: fc.integer({ min: 1, max: 2 }), args, children: selectionArb(getNamedType(q[name]!.type), 1) });
  return [
    root('standingIntents', argsArb(q.standingIntents!)),
    root('standingIntent', fc.constant(`(id: "${standingId}")`)),
    root(
      'intents',
      argsArb(q.intents!).map((a) => `(walletId: "${walletId}"${a ? `, ${a.slice(1, -1)}` : ''})`),
    ),
    root('walletById', fc.constant(`(id: "${walletId}")`)),
    root('auditEvents', argsArb(q.auditEvents!)),
    root('policies', argsArb(q.policies!)),
    root('webhookEndpoints', fc.constant('')),
    root('usage', fc.constant('')),
  ];
};

/** A field with no arguments and no selection. */
const leaf = (name: string): Pick => ({ name, aliases: 1, args: '', children: [] });
/** A connection field of `aliases` pages of 100, selecting `node` through its edges. */
const page = (name: string, aliases: number, node: Pick[]): Pick => ({
  name,
  aliases,
  args: '(first: 100)',
  children: [{ ...leaf('edges'), children: [{ ...leaf('node'), children: node }] }],
});

/** The selection as GraphQL, each alias named once in its selection set. */
function render(picks: Pick[]): string {
  let n = 0;
  return picks
    .flatMap((p) =>
      Array.from(
        { length: p.aliases },
        () => `${p.name === '__typename' ? '' : `a${n++}: `}${p.name}${p.args}${p.children.length ? ` { ${render(p.children)} }` : ''}`,
      ),
    )
    .join(' ');
}

/** Fields an answer resolved: every key of its objects, and every scalar item of its lists. */
function resolved(v: Json): number {
  if (Array.isArray(v)) return v.reduce((sum: number, x: Json) => sum + (x !== null && typeof x === 'object' ? resolved(x) : 1), 0);
  if (v !== null && typeof v === 'object')
    return Object.values(v).reduce((sum: number, x) => sum + 1 + (x !== null && typeof x === 'object' ? resolved(x) : 0), 0);
  return 0;
}

test('behavior: every generated operation (aliases, nesting, page sizes) is refused before it runs, or resolves no more fields than its cost, within the time its cost allows', async () => {
  let refused = 0;
  let ran = 0;
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(fc.oneof(...roots()), { minLength: 1, maxLength: 3, selector: (p) => p.name }), async (picks) => {
      const query = `{ ${render(picks)} }`;
      const cost = staticCost(schema, parse(query));
      const t0 = performance.now();
      const r = await srv.gql(query, undefined, acct.key);
      const ms = performance.now() - t0;
      if (r.body.data === undefined) {
        // Refused before it ran: over the ceiling, or over the document's own bounds (QUERY_TOO_LARGE: 2,000 tokens), checked first.
        refused++;
        const code = r.body.errors?.[0]?.extensions?.code;
        expect(['QUERY_TOO_COMPLEX', 'QUERY_TOO_LARGE']).toContain(code);
        if (code === 'QUERY_TOO_COMPLEX') {
          expect(cost).toBeGreaterThan(MAX_OPERATION_COST);
          expect(r.body.errors[0].extensions.details).toEqual({ cost, maxCost: MAX_OPERATION_COST });
        }
        return;
      }
      ran++;
      expect(r.status).toBe(200);
      if (cost > MAX_OPERATION_COST) throw new Error(`ran over the ceiling (cost ${cost}): ${query} → ${r.text.slice(0, 500)}`);
      expect(resolved(r.body.data)).toBeLessThanOrEqual(cost);
      expect(ms).toBeLessThan(TIME_BASE_MS + cost * MS_PER_UNIT);
    }),
    // Both sides drawn in every run, whatever the seed: one operation far over the ceiling (two pages of 100 standing
    // intents, each with three pages of 100 decisions) and one small read.
    {
      numRuns: RUNS,
      examples: [[[page('standingIntents', 2, [page('decisions', 3, [leaf('id')])])]], [[{ ...leaf('usage'), children: [leaf('__typename')] }]]],
    },
  );
  // Both sides of the property were drawn.
  expect(refused).toBeGreaterThan(0);
  expect(ran).toBeGreaterThan(0);
}, 60_000);
