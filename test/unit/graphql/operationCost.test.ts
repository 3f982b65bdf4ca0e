import { parse } from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';
import { ROOT_FIELD_CALLERS, ROOT_FIELD_OPERATIONS, operationCost } from '../../../src/graphql/operationCost';

test('behavior: every root field of the schema has an operation (so a cost): none is free by omission', () => {
  const schema = buildSchema();
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => (t ? Object.keys(t.getFields()) : []));
  // The dashboard's fields are session-only, and sessions pay no credits: every other field has a cost.
  const sessionOnly = (f: string) => ROOT_FIELD_CALLERS[f]?.length === 1 && ROOT_FIELD_CALLERS[f]?.[0] === 'session';
  expect(roots.filter((f) => !(f in ROOT_FIELD_OPERATIONS) && !sessionOnly(f))).toEqual([]);
});

test('behavior: every root field says who may call it (none is open to a caller by omission)', () => {
  const schema = buildSchema();
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => (t ? Object.keys(t.getFields()) : []));
  expect(roots.filter((f) => !(f in ROOT_FIELD_CALLERS))).toEqual([]);
  expect(Object.keys(ROOT_FIELD_CALLERS).filter((f) => !roots.includes(f))).toEqual([]);
});

test('behavior: the cost sums root fields by their credits (aliases each count, createIntent 5, __typename free), following root fragments once', () => {
  const doc = parse(
    'mutation M { a: createIntent(input: {walletId: "w", action: LEND, amount: "1"}) { id } b: createWallet(input: {userId: "u"}) { id } __typename ...F ...F } fragment F on Mutation { c: createWallet(input: {userId: "v"}) { id } }',
  );
  expect(operationCost(doc, 'M')).toEqual({ cost: 7, fields: 3, operations: ['createIntent', 'createWallet', 'createWallet'] });
});
