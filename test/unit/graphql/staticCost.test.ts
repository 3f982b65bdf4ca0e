import { parse, validate } from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';
import { INTROSPECTION_COST, staticCost } from '../../../src/graphql/staticCost';
import { MAX_OPERATION_COST } from '../../../src/graphql/operationCost';
import { WORK_UNITS_PER_CREDIT, workSurcharge } from '../../../src/app/accounts/billedOperations';

const schema = buildSchema();
/** The cost of a document that must be valid against the schema (so a typo cannot make a case pass). */
function cost(query: string, variables?: Record<string, unknown>, operationName?: string): number {
  const doc = parse(query);
  expect(validate(schema, doc)).toEqual([]);
  return staticCost(schema, doc, operationName, variables);
}

// decisions(first: 4) { edges { node { id } } }: 10 (its read) + 4 × (edges 1 + node 1 + id 1)
const DECISIONS_4 = 10 + 4 * 3;
const nested = (outer: string, inner: string) =>
  `{ standingIntents(${outer}) { edges { node { decisions${inner ? `(${inner})` : ''} { edges { node { id } } } } } } }`;

describe('static cost', () => {
  test('behavior: nested connections multiply: each page by its first, times the cost of its selection', () => {
    // 10 + 3 × (edges 1 + node 1 + decisions)
    expect(cost(nested('first: 3', 'first: 4'))).toBe(10 + 3 * (2 + DECISIONS_4));
  });

  test('behavior: a page without first/last costs the default page (20); last costs like first, plus the backward scan', () => {
    expect(cost(nested('first: 3', ''))).toBe(10 + 3 * (2 + 10 + 20 * 3));
    expect(cost(nested('last: 3', 'first: 4'))).toBe(10 + 90 + 3 * (2 + DECISIONS_4));
  });

  test('behavior: first comes from the variables, else the variable default, else the default page; beyond 100 it counts 100 (the use case refuses it unread)', () => {
    const q =
      'query Q($n: Int, $m: Int = 7) { standingIntents(first: $n) { edges { node { id } } } i: intents(walletId: "w", first: $m) { edges { node { id } } } }';
    const page = (n: number) => 10 + n * 3;
    expect(cost(q, { n: 50 })).toBe(page(50) + page(7));
    expect(cost(q, { n: 50, m: 2 })).toBe(page(50) + page(2));
    expect(cost(q, {})).toBe(page(20) + page(7));
    expect(cost(q, { n: 100_000 })).toBe(page(100) + page(7));
  });

  test('behavior: aliases each count, fragments and inline fragments count where they are spread', () => {
    const one = cost(nested('first: 3', 'first: 4'));
    const aliased = `{ a: standingIntents(first: 3) { edges { node { decisions(first: 4) { edges { node { id } } } } } }
                       b: standingIntents(first: 3) { edges { node { decisions(first: 4) { edges { node { id } } } } } } }`;
    expect(cost(aliased)).toBe(2 * one);
    const viaFragments = `{ standingIntents(first: 3) { ...Page } } fragment Page on StandingIntentConnection { edges { node { ... on StandingIntent { ...D } } } }
                          fragment D on StandingIntent { decisions(first: 4) { edges { node { id } } } }`;
    expect(cost(viaFragments)).toBe(one);
    const twice = `{ standingIntents(first: 3) { edges { node { ...D x: decisions(first: 4) { edges { node { id } } } } } } } fragment D on StandingIntent { decisions(first: 4) { edges { node { id } } } }`;
    expect(cost(twice)).toBe(10 + 3 * (2 + 2 * DECISIONS_4));
  });

  test('behavior: the bomb of issue 41 (110 aliases of decisions(first: 100) under standingIntents(first: 100)) is far over the ceiling', () => {
    const d = Array.from({ length: 110 }, (_, i) => `d${i}: decisions(first: 100) { edges { node { id } } }`).join(' ');
    const bomb = cost(`{ standingIntents(first: 100) { edges { node { id ${d} } } } }`);
    expect(bomb).toBe(10 + 100 * (2 + 1 + 110 * (10 + 100 * 3)));
    expect(bomb).toBeGreaterThan(MAX_OPERATION_COST);
  });

  test('behavior: 300 aliases of earnings (each a read on chain) are over the ceiling; one is 1,000 units', () => {
    const earnings = (n: number) =>
      `query($id: ID!) { standingIntent(id: $id) { ${Array.from({ length: n }, (_, i) => `e${i}: earnings { moves }`).join(' ')} } }`;
    expect(cost(earnings(1), { id: 's' })).toBe(10 + 1 + 1_000);
    expect(cost(earnings(300), { id: 's' })).toBeGreaterThan(MAX_OPERATION_COST);
  });

  test('behavior: plain lists cost their bound times their selection; a list of scalars one unit an item', () => {
    // balances 100 + chains 1 + 6 × (chain 1); a wallet's chains: 6 enums.
    expect(cost('{ balances(walletId: "w") { chains { chain } } }')).toBe(100 + 1 + 6 * 1);
    expect(cost('{ walletById(id: "w") { chains } }')).toBe(10 + 1 + 6);
  });

  test('behavior: the yield history is priced by the markets and buckets its filters leave', () => {
    const q = (args: string) => `{ yieldHistory(asset: USDC${args}) { series { buckets { mean } } } }`;
    // yieldHistory 100 + series 1 + markets × (buckets 1 + buckets × mean 1)
    expect(cost(q(', chain: BASE_SEPOLIA, protocol: AAVE_V3'))).toBe(100 + 1 + 1 * (1 + 500));
    expect(cost(q(', chain: BASE_SEPOLIA, protocol: AAVE_V3, bucket: MINUTE'))).toBe(100 + 1 + 1 * (1 + 1_440));
    expect(cost(q(''))).toBe(100 + 1 + 12 * (1 + 500));
  });

  test('behavior: introspection is a fixed cost, whatever it selects', () => {
    expect(cost('{ __schema { types { name fields { name } } } }')).toBe(INTROSPECTION_COST);
  });

  test('behavior: fragments spreading each other twice over cost linear time (each fragment costed once per place)', () => {
    const levels = 30;
    const defs = Array.from({ length: levels }, (_, i) => `fragment F${i} on Wallet { ${i + 1 < levels ? `...F${i + 1} a${i}: id ...F${i + 1}` : 'id'} }`);
    const doc = parse(`{ walletById(id: "w") { ...F0 } } ${defs.join(' ')}`);
    // Not validated (graphql-js's own overlap rule is slow on it); F(i) = 2 F(i+1) + 1 and F(29) = 1, so F(0) = 2^30 - 1.
    expect(staticCost(schema, doc)).toBe(10 + 2 ** levels - 1);
  });
});

describe('credits by work', () => {
  test('behavior: an API key pays one credit more per 5,000 units beyond its allowance (its root credits × 5,000, at least one credit worth)', () => {
    expect(WORK_UNITS_PER_CREDIT).toBe(5_000);
    expect(workSurcharge({ via: 'apiKey' }, 1, 5_000)).toBe(0);
    expect(workSurcharge({ via: 'apiKey' }, 1, 5_001)).toBe(1);
    expect(workSurcharge({ via: 'apiKey' }, 0, 4_000)).toBe(0);
    expect(workSurcharge({ via: 'apiKey' }, 2, 50_000)).toBe(8);
    expect(workSurcharge({ via: 'session' }, 0, 50_000)).toBe(0);
    expect(workSurcharge({ via: 'payment' }, 1, 50_000)).toBe(0);
  });
});
