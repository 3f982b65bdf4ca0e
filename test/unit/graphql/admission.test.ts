import SchemaBuilder from '@pothos/core';
import { execute, parse, type GraphQLField } from 'graphql';
import '../../../src/graphql/admission';
import { subscriptionAdmission, type FieldAdmission } from '../../../src/graphql/admission';
import type { GraphQLContext } from '../../../src/graphql/context';
import type { AppDeps } from '../../../src/app/deps';
import type { Principal } from '../../../src/app/accounts/principal';
import type { Operation } from '../../../src/domain/plans';
import { buildSchema } from '../../../src/graphql/schema';
import { ROOT_FIELD_OPERATIONS } from '../../../src/graphql/operationCost';

const admissionOf = (f: GraphQLField<unknown, unknown>) => (f.extensions.pothosOptions as { admission?: FieldAdmission<{ id: string }> }).admission;

test('behavior: every priced root field is admitted as the operation it is priced as, and no other field is', () => {
  const schema = buildSchema();
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((t) => (t ? Object.values(t.getFields()) : []));
  const declared = Object.fromEntries(
    roots.flatMap((f) => {
      const admission = admissionOf(f);
      if (admission === undefined) return [];
      // node names its operation from the id's type: a wallet's is the price of every node.
      return [[f.name, typeof admission === 'function' ? admission({ id: 'svc_wallet_x' }) : admission]];
    }),
  );
  expect(declared).toEqual(ROOT_FIELD_OPERATIONS);
});

test('behavior: node is admitted as the read of the type its id names, and as nothing when it names none', () => {
  const node = buildSchema().getQueryType()!.getFields().node!;
  const admission = admissionOf(node) as (args: { id: string }) => Operation | undefined;
  expect(['intent_x', 'svc_policy_x', 'svc_standing_x', 'nothing_x'].map((id) => admission({ id }))).toEqual([
    'getIntent',
    'getPolicy',
    'getStandingIntent',
    undefined,
  ]);
});

/** A schema of one admitted mutation whose resolver counts its runs and fails on demand. */
function probeSchema() {
  const builder = new SchemaBuilder<{ Context: GraphQLContext; DefaultFieldNullability: false }>({
    plugins: ['admission'],
    defaultFieldNullability: false,
  });
  const runs: string[] = [];
  builder.queryType({});
  builder.queryField('ping', (t) => t.string({ resolve: () => 'pong' }));
  builder.mutationType({});
  builder.mutationField('create', (t) =>
    t.string({
      nullable: true,
      args: { fail: t.arg.boolean({ required: true }) },
      admission: 'createIntent',
      resolve: (_root, args) => {
        runs.push(args.fail ? 'failed' : 'ran');
        if (args.fail) throw new Error('refused by the use case');
        return 'created';
      },
    }),
  );
  return { schema: builder.toSchema(), runs };
}

function context(scopes: Principal['scopes'], consumed: Operation[]): GraphQLContext {
  const principal: Principal = { account: { id: 'acct_a', plan: 'pro', createdAt: '' } as Principal['account'], keyId: 'k', scopes, via: 'apiKey' };
  return {
    deps: {} as AppDeps,
    principal,
    requestId: 'request_a',
    charge: { consume: (op) => (consumed.push(op), 5), release: async () => undefined },
  };
}

test('behavior: an admitted field spends its prepaid operation when it succeeds, and nothing when it fails', async () => {
  const { schema, runs } = probeSchema();
  const consumed: Operation[] = [];
  const ok = await execute({
    schema,
    document: parse('mutation { a: create(fail: false) b: create(fail: true) }'),
    contextValue: context(['read', 'write'], consumed),
  });
  expect(ok.data).toEqual({ a: 'created', b: null });
  expect(runs).toEqual(['ran', 'failed']);
  expect(consumed).toEqual(['createIntent']);
});

test('error: an admitted field refuses a key without the scope its operation needs, before its resolver runs', async () => {
  const { schema, runs } = probeSchema();
  const consumed: Operation[] = [];
  const r = await execute({ schema, document: parse('mutation { create(fail: false) }'), contextValue: context(['read'], consumed) });
  expect(r.data).toEqual({ create: null });
  expect(r.errors?.map((e) => [e.message, (e.originalError as { code?: string }).code])).toEqual([['This API key lacks the write scope', 'FORBIDDEN']]);
  expect(runs).toEqual([]);
  expect(consumed).toEqual([]);
});

test('behavior: a subscriber joining a shared stream is admitted as the operation of its field, found through fragments', () => {
  const schema = buildSchema();
  const joiner = (query: string, operationName?: string) => subscriptionAdmission({ schema, document: parse(query), operationName });
  expect(joiner('subscription { intentUpdated(id: "intent_x") { id } }')).toBe('watchIntent');
  expect(
    joiner(
      'subscription S { ... on Subscription { ...D } } fragment D on Subscription { standingIntentDecisions(standingIntentId: "svc_standing_x") { outcome } }',
      'S',
    ),
  ).toBe('listStandingDecisions');
  // The dashboard's own stream declares no admission: its joiners, like its starter, pay nothing.
  expect(joiner('subscription { viewerIntentUpdated { id } }')).toBeUndefined();
});
