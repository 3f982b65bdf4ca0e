import { builder } from '../builder';
import { AssetEnum, ChainEnum } from './enums';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';
import { runOperation } from '../../app/accounts/admitRequest';
import { submitIntent } from '../../app/intents/submitIntent';
import { getIntent } from '../../app/intents/getIntent';
import { listIntents, type IntentPage } from '../../app/intents/listIntents';
import {
  INTENT_ACTIONS,
  INTENT_STATUSES,
  STEP_STATUSES,
  STRATEGIES,
  type BridgeStep,
  type DepositStep,
  type ExecutionPlan,
  type Intent,
  type IntentError,
  type IntentResults,
  type Step,
  type TransactionRecord,
  type WithdrawStep,
} from '../../domain/intent';

/**
 * Intents over GraphQL: the Intent type (steps as the `Step` interface with
 * one type per kind), Query.intent, Query.intents (a connection) and
 * Mutation.createIntent, all over the same use-cases as REST.
 */

/** Enum values from the domain's lists: "no-bridge" ↔ NO_BRIDGE. */
function enumValues<T extends string>(values: readonly T[]): Record<string, { value: T }> {
  return Object.fromEntries(values.map((v) => [v.toUpperCase().replace(/-/g, '_'), { value: v }]));
}

const IntentStatusEnum = builder.enumType('IntentStatus', { values: enumValues(INTENT_STATUSES) });
const IntentActionEnum = builder.enumType('IntentAction', { values: enumValues(INTENT_ACTIONS) });
const StepStatusEnum = builder.enumType('StepStatus', { values: enumValues(STEP_STATUSES) });
const StrategyEnum = builder.enumType('Strategy', { values: enumValues(STRATEGIES) });

const StepErrorRef = builder.objectRef<{ code: string; message: string }>('StepError').implement({
  description: 'A transient problem a step is retrying through (the intent is not failed).',
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

const StepRef = builder.interfaceRef<Step>('Step').implement({
  description: 'One step of an execution plan; `index` is its position from 0.',
  resolveType: (s) => ({ deposit: 'DepositStep', withdraw: 'WithdrawStep', bridge: 'BridgeStep' })[s.type],
  fields: (t) => ({
    index: t.exposeInt('index'),
    status: t.field({ type: StepStatusEnum, resolve: (s) => s.status }),
    chain: t.field({ type: ChainEnum, description: 'Chain the step sends on (a bridge: its source).', resolve: (s) => s.chain }),
    amount: t.exposeString('amount', { description: 'Decimal string in token units.' }),
    txHash: t.exposeString('txHash', { nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
    gasUsed: t.exposeString('gasUsed', { nullable: true }),
    gasCostUsd: t.exposeFloat('gasCostUsd', { nullable: true }),
    attempts: t.exposeInt('attempts', { nullable: true, description: 'While the step keeps meeting trouble: tries so far (null once its transaction is mined).' }),
    lastError: t.field({ type: StepErrorRef, nullable: true, description: 'The last trouble while the step keeps trying.', resolve: (s) => s.lastError ?? null }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the step tries again.' }),
  }),
});

builder.objectRef<DepositStep>('DepositStep').implement({
  interfaces: [StepRef],
  isTypeOf: (s) => (s as Step).type === 'deposit',
  fields: (t) => ({
    protocol: t.exposeString('protocol'),
    asset: t.field({ type: AssetEnum, resolve: (s) => s.asset }),
  }),
});

builder.objectRef<WithdrawStep>('WithdrawStep').implement({
  interfaces: [StepRef],
  isTypeOf: (s) => (s as Step).type === 'withdraw',
  fields: (t) => ({
    protocol: t.exposeString('protocol'),
    asset: t.field({ type: AssetEnum, resolve: (s) => s.asset }),
  }),
});

builder.objectRef<BridgeStep>('BridgeStep').implement({
  interfaces: [StepRef],
  isTypeOf: (s) => (s as Step).type === 'bridge',
  fields: (t) => ({
    from: t.field({ type: ChainEnum, resolve: (s) => s.from }),
    to: t.field({ type: ChainEnum, resolve: (s) => s.to }),
    fee: t.exposeString('fee', { nullable: true, description: 'Route fee taken out on arrival, decimal string.' }),
  }),
});

const ExecutionPlanRef = builder.objectRef<ExecutionPlan>('ExecutionPlan').implement({
  fields: (t) => ({
    strategy: t.field({ type: StrategyEnum, resolve: (p) => p.strategy }),
    steps: t.field({ type: [StepRef], resolve: (p) => p.steps }),
    reasoning: t.exposeString('reasoning'),
  }),
});

/** The engine's extra fields on a transaction record, when present. */
const extra = (r: TransactionRecord, key: 'kind' | 'status'): string | null => {
  const v = (r as TransactionRecord & Partial<Record<'kind' | 'status', unknown>>)[key];
  return typeof v === 'string' ? v : null;
};

const TransactionRef = builder.objectRef<TransactionRecord>('IntentTransaction').implement({
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Kind of the step it belongs to: deposit, withdraw or bridge.' }),
    kind: t.string({ nullable: true, description: 'approve, supply, withdraw, burn, mint, or revoke (an allowance taken back after a failure).', resolve: (r) => extra(r, 'kind') }),
    replacedTxHashes: t.stringList({
      description: 'Other hashes signed at the same nonce (fee-bumped replacements of a stuck transaction); none of them was mined.',
      resolve: (r) => {
        const replaced = (r as TransactionRecord & { replaced?: unknown }).replaced;
        return Array.isArray(replaced) ? replaced.map(String) : [];
      },
    }),
    status: t.string({ nullable: true, description: 'signed, confirmed or reverted.', resolve: (r) => extra(r, 'status') }),
    txHash: t.exposeString('txHash'),
    chain: t.field({ type: ChainEnum, nullable: true, resolve: (r) => r.chain }),
    gasUsed: t.exposeString('gasUsed', { nullable: true }),
    gasCostUsd: t.exposeFloat('gasCostUsd', { nullable: true }),
  }),
});

const ResultsRef = builder.objectRef<IntentResults>('IntentResults').implement({
  fields: (t) => ({
    completedSteps: t.exposeInt('completedSteps'),
    transactions: t.field({ type: [TransactionRef], resolve: (r) => r.transactions }),
    totalGasUsed: t.exposeString('totalGasUsed'),
    totalGasCostUsd: t.exposeFloat('totalGasCostUsd'),
    finalAmount: t.exposeString('finalAmount'),
    apy: t.exposeFloat('apy', { description: 'APY obtained, percent.' }),
    failedStep: t.exposeInt('failedStep', { nullable: true, description: 'Position (from 1) of the step that failed.' }),
  }),
});

const IntentErrorRef = builder.objectRef<IntentError>('IntentError').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    details: t.expose('details', { type: 'JSON' }),
  }),
});

/** The Intent object type (backed by the stored record, amounts as exact decimal strings). */
export const IntentRef = builder.objectRef<Intent>('Intent').implement({
  description: 'A lend, withdraw or bridge goal, planned and executed asynchronously (same resource as /v1/intents).',
  fields: (t) => ({
    id: t.exposeID('id'),
    walletId: t.exposeID('walletId'),
    status: t.field({ type: IntentStatusEnum, resolve: (i) => i.status }),
    action: t.field({ type: IntentActionEnum, resolve: (i) => i.action }),
    amount: t.exposeString('amount', { description: 'Decimal string: what the plan moves once planned (after route fees).' }),
    requestedAmount: t.exposeString('requestedAmount', { description: 'Decimal string: what was asked for.' }),
    asset: t.field({ type: AssetEnum, resolve: (i) => i.asset }),
    chain: t.field({ type: ChainEnum, nullable: true, resolve: (i) => i.chain }),
    fromChain: t.field({ type: ChainEnum, nullable: true, resolve: (i) => i.fromChain }),
    toChain: t.field({ type: ChainEnum, nullable: true, resolve: (i) => i.toChain }),
    executionPlan: t.field({ type: ExecutionPlanRef, nullable: true, resolve: (i) => i.executionPlan }),
    results: t.field({ type: ResultsRef, nullable: true, resolve: (i) => i.results }),
    error: t.field({ type: IntentErrorRef, nullable: true, resolve: (i) => i.error }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const PageInfoRef = builder.objectRef<IntentPage['pageInfo']>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true }),
  }),
});

const IntentEdgeRef = builder.objectRef<IntentPage['edges'][number]>('IntentEdge').implement({
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    node: t.field({ type: IntentRef, resolve: (e) => e.node }),
  }),
});

const IntentConnectionRef = builder.objectRef<IntentPage>('IntentConnection').implement({
  fields: (t) => ({
    edges: t.field({ type: [IntentEdgeRef], resolve: (p) => p.edges }),
    pageInfo: t.field({ type: PageInfoRef, resolve: (p) => p.pageInfo }),
  }),
});

const CreateIntentInput = builder.inputType('CreateIntentInput', {
  fields: (t) => ({
    walletId: t.id({ required: true }),
    action: t.field({ type: IntentActionEnum, required: true }),
    amount: t.string({ required: true, description: 'Decimal string in token units, e.g. "10.5".' }),
    asset: t.field({ type: AssetEnum, description: 'Default USDC.' }),
    chain: t.field({ type: ChainEnum, description: 'lend: the destination (default: best APY); withdraw: required.' }),
    fromChain: t.field({ type: ChainEnum, description: 'bridge: required.' }),
    toChain: t.field({ type: ChainEnum, description: 'bridge: required.' }),
  }),
});

builder.queryField('intent', (t) =>
  t.field({
    type: IntentRef,
    description: 'One of the caller\'s intents (same as GET /v1/intents/:intentId).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'getIntent', () => getIntent(ctx.deps, principal, String(args.id)), ctx.charge);
    },
  }),
);

builder.queryField('intents', (t) =>
  t.field({
    type: IntentConnectionRef,
    description: 'A wallet\'s intents, newest first (same as GET /v1/intents?walletId=).',
    args: {
      walletId: t.arg.id({ required: true }),
      status: t.arg({ type: IntentStatusEnum }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const query = withoutNulls({ ...args, walletId: String(args.walletId) });
      return runOperation(ctx.deps, principal, 'listIntents', () => listIntents(ctx.deps, principal, query), ctx.charge);
    },
  }),
);

builder.mutationField('createIntent', (t) =>
  t.field({
    type: IntentRef,
    description: 'Creates a lend, withdraw or bridge intent (same as POST /v1/intents). Honours the Idempotency-Key HTTP header.',
    args: { input: t.arg({ type: CreateIntentInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls({ ...args.input, walletId: String(args.input.walletId) });
      return runOperation(ctx.deps, principal, 'createIntent', async () => {
        const result = await submitIntent(ctx.deps, principal, body, ctx.idempotencyKey);
        // the record, not the REST view: GraphQL keeps amounts as exact decimal strings
        return getIntent(ctx.deps, principal, result.body.id);
      }, ctx.charge);
    },
  }),
);
