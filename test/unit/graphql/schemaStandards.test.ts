import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
} from 'graphql';
import { buildSchema } from '../../../src/graphql/schema';
import { NODE_TYPES } from '../../../src/graphql/types/node';
import { ASSETS, LENDING_PROTOCOLS, TOKEN_ASSETS } from '../../../src/domain/chains';
import { ID_PREFIX } from '../../../src/domain/ids';

/**
 * The schema to the standard of GitHub's and Shopify's public schemas (issue
 * 15 item 1), checked on the built schema. `npm run lint` runs
 * @graphql-eslint on the printed one; these are the properties the lint
 * rules leave to us (eslint.config.mjs says which and why).
 */
const schema = buildSchema();
const own = (t: GraphQLNamedType) => !t.name.startsWith('__');
const types = Object.values(schema.getTypeMap()).filter(own);
const objects = types.filter(isObjectType);
const fieldsOf = (t: GraphQLNamedType): GraphQLField<unknown, unknown>[] => (isObjectType(t) || isInterfaceType(t) ? Object.values(t.getFields()) : []);

test('behavior: every type, field, argument, input field and enum value has a description', () => {
  const missing: string[] = [];
  const need = (what: string, d: string | null | undefined) => {
    if (!d || !d.trim()) missing.push(what);
  };
  for (const t of types) {
    need(t.name, t.description);
    for (const f of fieldsOf(t)) {
      need(`${t.name}.${f.name}`, f.description);
      for (const a of f.args) need(`${t.name}.${f.name}(${a.name})`, a.description);
    }
    if (isInputObjectType(t)) for (const f of Object.values(t.getFields())) need(`${t.name}.${f.name}`, f.description);
    if (isEnumType(t)) for (const v of t.getValues()) need(`${t.name}.${v.name}`, v.description);
  }
  expect(missing).toEqual([]);
});

test('behavior: Wallet, Intent, Policy and StandingIntent are Nodes, each typed by the prefix of its service id', () => {
  const node = schema.getType('Node');
  if (!isInterfaceType(node)) throw new Error('Node is not an interface');
  expect(
    schema
      .getPossibleTypes(node)
      .map((t) => t.name)
      .sort(),
  ).toEqual(['Intent', 'Policy', 'StandingIntent', 'Wallet']);
  expect(NODE_TYPES).toEqual([
    { prefix: ID_PREFIX.wallet, type: 'Wallet' },
    { prefix: ID_PREFIX.intent, type: 'Intent' },
    { prefix: ID_PREFIX.policy, type: 'Policy' },
    { prefix: ID_PREFIX.standing, type: 'StandingIntent' },
  ]);
  const nodeField = schema.getQueryType()!.getFields().node!;
  expect(`${nodeField.type}`).toBe('Node');
  expect(nodeField.args.map((a) => `${a.name}: ${a.type}`)).toEqual(['id: ID!']);
});

test('behavior: every edge has a cursor and a Node (AuditEventEdge, StandingDecisionEdge and WebhookDeliveryEdge aside: log entries have no read by id)', () => {
  const edges = objects.filter((t) => t.name.endsWith('Edge'));
  expect(edges.map((t) => t.name).sort()).toEqual([
    'AuditEventEdge',
    'IntentEdge',
    'PolicyEdge',
    'StandingDecisionEdge',
    'StandingIntentEdge',
    'WebhookDeliveryEdge',
  ]);
  for (const e of edges) {
    const f = e.getFields();
    expect(`${f.cursor!.type}`).toBe('String!');
    const node = getNamedType(f.node!.type);
    const isNode = isObjectType(node) && node.getInterfaces().some((i) => i.name === 'Node');
    expect({ edge: e.name, isNode }).toEqual({ edge: e.name, isNode: !['AuditEventEdge', 'StandingDecisionEdge', 'WebhookDeliveryEdge'].includes(e.name) });
  }
});

test('behavior: every connection field pages both ways (first/after/last/before) and PageInfo is complete', () => {
  const connectionFields = objects.flatMap((t) =>
    fieldsOf(t)
      .filter((f) => getNamedType(f.type).name.endsWith('Connection'))
      .map((f) => ({ t, f })),
  );
  expect(connectionFields.map(({ t, f }) => `${t.name}.${f.name}`).sort()).toEqual([
    'Query.auditEvents',
    'Query.intents',
    'Query.policies',
    'Query.standingIntents',
    'Query.webhookDeliveries',
    'StandingIntent.decisions',
  ]);
  for (const { f } of connectionFields) {
    const args = Object.fromEntries(f.args.map((a) => [a.name, `${a.type}`]));
    expect(args).toMatchObject({ first: 'Int', after: 'String', last: 'Int', before: 'String' });
  }
  const pageInfo = schema.getType('PageInfo');
  expect(Object.fromEntries(fieldsOf(pageInfo!).map((f) => [f.name, `${f.type}`]))).toEqual({
    hasNextPage: 'Boolean!',
    hasPreviousPage: 'Boolean!',
    startCursor: 'String',
    endCursor: 'String',
  });
});

test('behavior: root fields are nullable by design, so one refused field never nulls its siblings (the signed-in viewer aside)', () => {
  const nonNull = [schema.getQueryType()!, schema.getMutationType()!].flatMap((t) =>
    fieldsOf(t)
      .filter((f) => isNonNullType(f.type))
      .map((f) => `${t.name}.${f.name}`),
  );
  expect(nonNull).toEqual(['Query.viewer']);
});

test('behavior: closed value sets are enums: every protocol is LendingProtocol, transaction kind and status are enums, assets are the REST sets', () => {
  const byName = (name: string) =>
    objects.flatMap((t) =>
      fieldsOf(t)
        .filter((f) => f.name === name)
        .map((f) => `${t.name}.${f.name}: ${getNamedType(f.type).name}`),
    );
  expect(byName('protocol').every((s) => s.endsWith(': LendingProtocol'))).toBe(true);
  expect(byName('protocol').length).toBeGreaterThanOrEqual(5);
  const tx = Object.fromEntries(fieldsOf(schema.getType('IntentTransaction')!).map((f) => [f.name, `${f.type}`]));
  expect([tx.kind, tx.status, tx.type]).toEqual(['TransactionKind', 'TransactionStatus', 'StepType!']);
  const values = (name: string) => {
    const t = schema.getType(name);
    return isEnumType(t) ? t.getValues().map((v) => v.value) : [];
  };
  expect(values('LendingProtocol')).toEqual([...LENDING_PROTOCOLS]);
  // balances hold every Asset (native ETH included), as REST balance reports; everything else moves or quotes a TokenAsset, as REST does
  expect(values('Asset').sort()).toEqual([...ASSETS].sort());
  expect(values('TokenAsset').sort()).toEqual([...TOKEN_ASSETS].sort());
  const assetFields = objects.flatMap((t) =>
    fieldsOf(t)
      .filter((f) => f.name === 'asset')
      .map((f) => [`${t.name}.asset`, getNamedType(getNullableType(f.type)).name]),
  );
  for (const [field, type] of assetFields)
    expect({ field, type }).toEqual({ field, type: ['TokenBalance.asset', 'LendingPosition.asset'].includes(field!) ? 'Asset' : 'TokenAsset' });
});
