import { builder } from '../../builder';
import { BridgeSpeedEnum, ChainEnum, LendingProtocolEnum, TokenAssetEnum, describedValues } from '../enums';
import { NodeRef } from '../node';
import { ExecutionPlanRef } from './plan';
import { ResultsRef } from './results';
import type { Intent, IntentAction, IntentError, IntentStatus, RebalanceSource } from '../../../domain/intent';

/**
 * Intents over GraphQL: the Intent type here, its plan (plan.ts) and results
 * (results.ts), its inputs, queries, mutations and subscriptions beside it,
 * all over the same use-cases as REST. Every enum is built from a
 * description per domain value (enums.ts describedValues).
 */

export const IntentStatusEnum = builder.enumType('IntentStatus', {
  description: 'Where an intent stands: PENDING → PLANNING → EXECUTING → COMPLETED or FAILED, or CANCELLED when a cancel stopped it.',
  values: describedValues<IntentStatus>({
    pending: 'Accepted, waiting for the engine.',
    planning: 'The engine is reading balances and rates and choosing a plan.',
    executing: 'The plan is being carried out, step by step.',
    completed: 'Every step completed (final).',
    failed: 'Stopped: see `error` (final).',
    cancelled:
      'Stopped by a cancel before a step that had nothing signed: `results` say which steps completed; funds stay where the last of them left them (final).',
  }),
});

export const IntentActionEnum = builder.enumType('IntentAction', {
  description: 'What an intent asks for.',
  values: describedValues<IntentAction>({
    lend: 'Supply tokens to the best lending market of the wallet (or on `chain`), bridging USDC there first when needed.',
    withdraw: 'Withdraw tokens from the lending position on `chain`.',
    bridge: 'Move USDC from `fromChain` to `toChain`.',
    rebalance:
      'Move funds from `sources` (positions withdrawn, idle balances) into the `toProtocol` market on `toChain`, bridging USDC there first when needed.',
  }),
});

const IntentErrorRef = builder.objectRef<IntentError>('IntentError').implement({
  description: 'Why a failed intent failed, or where a cancelled rebalance left funds idle.',
  fields: (t) => ({
    code: t.exposeString('code', {
      description:
        'The error code, as REST `error` and GraphQL `extensions.code` spell it (INSUFFICIENT_FUNDS, BRIDGE_FAILED, DEPOSIT_FAILED, WITHDRAW_FAILED, POLICY_VIOLATION, …; INTENT_CANCELLED on a cancelled rebalance that left funds idle).',
    }),
    message: t.exposeString('message', { description: 'What went wrong, in words.' }),
    details: t.expose('details', {
      type: 'JSON',
      description: 'Facts of the failure, by code (e.g. required and available amounts; INTENT_CANCELLED: `idle`, decimal strings per chain).',
    }),
  }),
});

const RebalanceSourceRef = builder.objectRef<RebalanceSource>('RebalanceSource').implement({
  description: "One source of a rebalance: a position withdrawn, or the wallet's idle funds on a chain.",
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain the funds are on.', resolve: (s) => s.chain }),
    protocol: t.field({
      type: LendingProtocolEnum,
      nullable: true,
      description: 'The lending protocol of the position withdrawn; null for idle funds.',
      resolve: (s) => s.protocol,
    }),
    amount: t.exposeString('amount', { description: 'Decimal string in token units: what this source gives.' }),
  }),
});

/** The Intent object type (backed by the stored record, amounts as exact decimal strings). */
export const IntentRef = builder.objectRef<Intent>('Intent').implement({
  description: 'A lend, withdraw, bridge or rebalance goal, planned and executed asynchronously (same resource as /v1/intents).',
  interfaces: [NodeRef],
  fields: (t) => ({
    walletId: t.exposeID('walletId', { description: 'The wallet the intent acts for.' }),
    status: t.field({ type: IntentStatusEnum, description: 'Where the intent stands.', resolve: (i) => i.status }),
    action: t.field({ type: IntentActionEnum, description: 'What the intent asks for.', resolve: (i) => i.action }),
    amount: t.exposeString('amount', { description: 'Decimal string: what the plan moves once planned (after route fees).' }),
    requestedAmount: t.exposeString('requestedAmount', { description: 'Decimal string: what was asked for.' }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset moved.', resolve: (i) => i.asset }),
    chain: t.field({
      type: ChainEnum,
      nullable: true,
      description: 'lend: the destination asked for (null: best APY); withdraw: the chain of the position.',
      resolve: (i) => i.chain,
    }),
    fromChain: t.field({ type: ChainEnum, nullable: true, description: 'bridge: the source chain; null otherwise.', resolve: (i) => i.fromChain }),
    toChain: t.field({
      type: ChainEnum,
      nullable: true,
      description: 'bridge: the destination chain; rebalance: the chain of the target market; null otherwise.',
      resolve: (i) => i.toChain,
    }),
    toProtocol: t.field({
      type: LendingProtocolEnum,
      nullable: true,
      description: 'rebalance: the lending protocol of the target market; null otherwise.',
      resolve: (i) => i.toProtocol,
    }),
    sources: t.field({
      type: [RebalanceSourceRef],
      nullable: true,
      description: 'rebalance: where the moved funds come from (`requestedAmount` is their sum); null otherwise.',
      resolve: (i) => i.sources,
    }),
    speed: t.field({
      type: BridgeSpeedEnum,
      nullable: true,
      description: 'bridge, lend and rebalance: how fast the bridges are attested; null for a withdraw.',
      resolve: (i) => i.speed,
    }),
    executionPlan: t.field({
      type: ExecutionPlanRef,
      nullable: true,
      description: 'The plan; null while pending or planning (and when planning failed).',
      resolve: (i) => i.executionPlan,
    }),
    results: t.field({ type: ResultsRef, nullable: true, description: 'What execution did; null until it starts.', resolve: (i) => i.results }),
    error: t.field({
      type: IntentErrorRef,
      nullable: true,
      description:
        'Why it stopped: set when FAILED; a CANCELLED rebalance that left funds idle on the way carries INTENT_CANCELLED (details.idle says where); null otherwise.',
      resolve: (i) => i.error,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the intent was accepted.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When it reached COMPLETED, FAILED or CANCELLED; null before.' }),
    cancelRequestedAt: t.expose('cancelRequestedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a cancel was asked for (cancelIntent); null when none was.',
    }),
  }),
});
