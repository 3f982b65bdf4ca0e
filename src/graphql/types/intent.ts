import { builder } from '../builder';
import {
  ChainEnum,
  LendingProtocolEnum,
  StepTypeEnum,
  TokenAssetEnum,
  TransactionKindEnum,
  TransactionStatusEnum,
  OptimizeGoalEnum,
  BridgeSpeedEnum,
  describedValues,
  known,
  type TransactionStatus,
} from './enums';
import { NodeRef } from './node';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from './connection';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';
import { submitIntent } from '../../app/intents/submitIntent';
import { getIntent } from '../../app/intents/getIntent';
import { cancelIntent } from '../../app/intents/cancelIntent';
import { listIntents } from '../../app/intents/listIntents';
import type { LendingProtocol } from '../../domain/chains';
import type { TransactionKind } from '../../app/intents/intentView';
import type {
  BridgeStep,
  DepositStep,
  ExecutionPlan,
  Intent,
  IntentAction,
  IntentError,
  IntentResults,
  IntentStatus,
  RebalanceSource,
  Step,
  StepStatus,
  Strategy,
  TransactionRecord,
  WithdrawStep,
} from '../../domain/intent';

/**
 * Intents over GraphQL: the Intent type (steps as the `Step` interface with
 * one type per kind), Query.intent, Query.intents (a connection) and
 * Mutation.createIntent, all over the same use-cases as REST. Every enum
 * is built from a description per domain value (enums.ts describedValues).
 */

const IntentStatusEnum = builder.enumType('IntentStatus', {
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

const StepStatusEnum = builder.enumType('StepStatus', {
  description: 'Where a step of an execution plan stands.',
  values: describedValues<StepStatus>({
    pending: 'Not started.',
    executing: 'Its transactions are being sent or awaited.',
    completed: 'Done.',
    failed: 'Failed: the intent failed with it.',
  }),
});

export const StrategyEnum = builder.enumType('Strategy', {
  description: 'How a plan reaches the goal.',
  values: describedValues<Strategy>({
    'no-bridge': 'Lend where the best rate is, with funds already there: no bridge.',
    'direct-deposit': 'Lend on the chain asked for, with funds already there: no bridge.',
    'single-bridge': 'One bridge, then the deposit (or the bridge alone for a bridge intent).',
    'multi-bridge': 'Several bridges from several chains, then the deposit.',
    'direct-withdraw': 'Withdraw from the position on the chain asked for.',
    rebalance: "Withdraw the sources' positions, bridge what is not on the target chain, deposit what arrives into the target market.",
  }),
});

const BridgeFeeSourceEnum = builder.enumType('BridgeFeeSource', {
  description: "Where a bridge step's planned fee came from when the attestation service did not answer at planning.",
  // Spelled by hand: describedValues would upper-case the camelCase REST values into LASTKNOWN.
  values: {
    LAST_KNOWN: { value: 'lastKnown', description: "The service's last answer for the route (REST `lastKnown`)." },
    STANDARD_FREE: { value: 'standardFree', description: 'No answer yet and a standard transfer: free under CCTP v2 (REST `standardFree`).' },
  } satisfies Record<string, { value: NonNullable<BridgeStep['feeSource']>; description: string }>,
});

const StepErrorRef = builder.objectRef<{ code: string; message: string }>('StepError').implement({
  description: 'A transient problem a step is retrying through (the intent is not failed).',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The error code (as REST `error` codes, e.g. NETWORK_ERROR, TIMEOUT).' }),
    message: t.exposeString('message', { description: 'What went wrong, in words.' }),
  }),
});

const StepRef = builder.interfaceRef<Step>('Step').implement({
  description: 'One step of an execution plan; `index` is its position from 0.',
  resolveType: (s) => ({ deposit: 'DepositStep', withdraw: 'WithdrawStep', bridge: 'BridgeStep' })[s.type],
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position in `executionPlan.steps`, from 0.' }),
    status: t.field({ type: StepStatusEnum, description: 'Where the step stands.', resolve: (s) => s.status }),
    chain: t.field({ type: ChainEnum, description: 'Chain the step sends on (a bridge: its source).', resolve: (s) => s.chain }),
    amount: t.exposeString('amount', { description: 'Decimal string in token units.' }),
    txHash: t.exposeString('txHash', { nullable: true, description: "The hash of the step's main transaction; null until sent." }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When the step started; null until then.' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true, description: 'When the step ended; null until then.' }),
    gasUsed: t.exposeString('gasUsed', { nullable: true, description: 'Gas used by its transactions (integer string); null until mined.' }),
    gasCostUsd: t.exposeFloat('gasCostUsd', { nullable: true, description: 'What that gas cost, in USD; null until mined.' }),
    attempts: t.exposeInt('attempts', {
      nullable: true,
      description: 'While the step keeps meeting trouble: tries so far (null once its transaction is mined).',
    }),
    lastError: t.field({
      type: StepErrorRef,
      nullable: true,
      description: 'The last trouble while the step keeps trying.',
      resolve: (s) => s.lastError ?? null,
    }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the step tries again.' }),
  }),
});

builder.objectRef<DepositStep>('DepositStep').implement({
  description: 'Supply `amount` of `asset` to `protocol` on `chain`.',
  interfaces: [StepRef],
  isTypeOf: (s) => (s as Step).type === 'deposit',
  fields: (t) => ({
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol supplied to.', resolve: (s) => s.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset supplied.', resolve: (s) => s.asset }),
    sandboxOnly: t.boolean({ description: 'The market exists only in the sandbox (the real test network has none).', resolve: (s) => s.sandboxOnly === true }),
  }),
});

builder.objectRef<WithdrawStep>('WithdrawStep').implement({
  description: 'Withdraw `amount` of `asset` from `protocol` on `chain`.',
  interfaces: [StepRef],
  isTypeOf: (s) => (s as Step).type === 'withdraw',
  fields: (t) => ({
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol withdrawn from.', resolve: (s) => s.protocol as LendingProtocol }),
    asset: t.field({ type: TokenAssetEnum, description: 'The asset withdrawn.', resolve: (s) => s.asset }),
    sandboxOnly: t.boolean({ description: 'The market exists only in the sandbox (the real test network has none).', resolve: (s) => s.sandboxOnly === true }),
  }),
});

builder.objectRef<BridgeStep>('BridgeStep').implement({
  description: '`amount` of USDC leaves `from`; `amount - fee` arrives on `to` (CCTP).',
  interfaces: [StepRef],
  isTypeOf: (s) => (s as Step).type === 'bridge',
  fields: (t) => ({
    from: t.field({ type: ChainEnum, description: 'The source chain.', resolve: (s) => s.from }),
    to: t.field({ type: ChainEnum, description: 'The destination chain.', resolve: (s) => s.to }),
    fee: t.exposeString('fee', {
      nullable: true,
      description: 'CCTP fee taken out on arrival, decimal string: the planned one until the mint, then what the mint kept back.',
    }),
    maxFee: t.exposeString('maxFee', {
      nullable: true,
      description: "The most the mint may keep back (the fee planned at the intent's speed): the burn's maxFee, decimal string.",
    }),
    minFinalityThreshold: t.exposeInt('minFinalityThreshold', {
      nullable: true,
      description: "The burn's CCTP v2 minFinalityThreshold: 1000 fast, 2000 standard.",
    }),
    feeSource: t.field({
      type: BridgeFeeSourceEnum,
      nullable: true,
      description: 'Where the planned `fee` came from when the attestation service did not answer at planning; null when it did (the fee is its answer).',
      resolve: (s) => s.feeSource ?? null,
    }),
  }),
});

const ExecutionPlanRef = builder.objectRef<ExecutionPlan>('ExecutionPlan').implement({
  description: 'How the engine reaches an intent: a strategy and ordered steps.',
  fields: (t) => ({
    strategy: t.field({ type: StrategyEnum, description: 'How the plan reaches the goal.', resolve: (p) => p.strategy }),
    steps: t.field({ type: [StepRef], description: 'The steps, in execution order.', resolve: (p) => p.steps }),
    reasoning: t.exposeString('reasoning', { description: 'Why this plan, in words.' }),
  }),
});

const TX_KINDS: readonly TransactionKind[] = ['approve', 'revoke', 'supply', 'withdraw', 'burn', 'mint', 'transfer'];
const TX_STATUSES: readonly TransactionStatus[] = ['signed', 'confirmed', 'reverted'];

/** The engine's extra fields on a transaction record, when present. */
const extra = (r: TransactionRecord, key: 'kind' | 'status'): unknown => (r as TransactionRecord & Partial<Record<'kind' | 'status', unknown>>)[key];

const TransactionRef = builder.objectRef<TransactionRecord>('IntentTransaction').implement({
  description: 'A transaction an intent sent.',
  fields: (t) => ({
    type: t.field({ type: StepTypeEnum, description: 'Kind of the step it belongs to.', resolve: (r) => r.type }),
    kind: t.field({
      type: TransactionKindEnum,
      nullable: true,
      description:
        'What the transaction does (APPROVE, SUPPLY, WITHDRAW, BURN, MINT, or REVOKE: an allowance taken back after a failure); null on records that do not say.',
      resolve: (r) => known(TX_KINDS, extra(r, 'kind')),
    }),
    replacedTxHashes: t.stringList({
      description: 'Other hashes signed at the same nonce (fee-bumped replacements of a stuck transaction); none of them was mined.',
      resolve: (r) => {
        const replaced = (r as TransactionRecord & { replaced?: unknown }).replaced;
        return Array.isArray(replaced) ? replaced.map(String) : [];
      },
    }),
    status: t.field({
      type: TransactionStatusEnum,
      nullable: true,
      description: 'SIGNED (sent, no receipt yet), CONFIRMED or REVERTED; null on records that do not say.',
      resolve: (r) => known(TX_STATUSES, extra(r, 'status')),
    }),
    txHash: t.exposeString('txHash', { description: 'The transaction hash.' }),
    chain: t.field({ type: ChainEnum, nullable: true, description: 'The chain it was sent on.', resolve: (r) => r.chain }),
    gasUsed: t.exposeString('gasUsed', { nullable: true, description: 'Gas used (integer string); null until mined.' }),
    gasCostUsd: t.exposeFloat('gasCostUsd', { nullable: true, description: 'What that gas cost, in USD; null until mined.' }),
  }),
});

const ResultsRef = builder.objectRef<IntentResults>('IntentResults').implement({
  description: 'What execution did; present once execution has started.',
  fields: (t) => ({
    completedSteps: t.exposeInt('completedSteps', { description: 'How many steps completed.' }),
    transactions: t.field({ type: [TransactionRef], description: 'Every transaction sent, in order.', resolve: (r) => r.transactions }),
    totalGasUsed: t.exposeString('totalGasUsed', { description: 'Gas used by every transaction (integer string).' }),
    totalGasCostUsd: t.exposeFloat('totalGasCostUsd', { description: 'What that gas cost, in USD.' }),
    finalAmount: t.exposeString('finalAmount', { description: 'Token units in place at the end (decimal string).' }),
    apy: t.exposeFloat('apy', { description: 'APY obtained, percent.' }),
    failedStep: t.exposeInt('failedStep', { nullable: true, description: 'Position (from 1) of the step that failed.' }),
    bridgeFees: t.exposeString('bridgeFees', {
      nullable: true,
      description: "What the CCTP fees of the intent's bridges took, as their mints kept it back (decimal string); null until a bridge is minted.",
    }),
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

const RebalanceSourceInput = builder.inputType('RebalanceSourceInput', {
  description: 'One source of a rebalance (createIntent).',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, required: true, description: 'The chain the funds are on.' }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the position to withdraw; null or absent for idle funds.' }),
    amount: t.string({ required: true, description: 'Decimal string in token units, e.g. "10.5".' }),
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

const IntentConnectionRef = connectionTypes<Intent, Intent>(
  'Intent',
  IntentRef,
  { edge: 'An intent', one: 'intent', many: 'intents', within: 'list', connection: "A page of a wallet's intents, newest first." },
  (i) => i,
);

export const CreateIntentInput = builder.inputType('CreateIntentInput', {
  description: 'A new intent (the body of POST /v1/intents).',
  fields: (t) => ({
    walletId: t.id({ required: true, description: 'The wallet to act for (svc_wallet_…).' }),
    action: t.field({ type: IntentActionEnum, required: true, description: 'LEND, WITHDRAW, BRIDGE or REBALANCE.' }),
    amount: t.string({ required: true, description: 'Decimal string in token units, e.g. "10.5".' }),
    asset: t.field({ type: TokenAssetEnum, description: 'Default USDC.' }),
    chain: t.field({ type: ChainEnum, description: 'lend: the destination (default: best APY); withdraw: required.' }),
    fromChain: t.field({ type: ChainEnum, description: 'bridge: required.' }),
    toChain: t.field({ type: ChainEnum, description: 'bridge: required; rebalance: the chain of the target market, required.' }),
    toProtocol: t.field({ type: LendingProtocolEnum, description: 'rebalance only, required there: the lending protocol of the target market.' }),
    sources: t.field({
      type: [RebalanceSourceInput],
      description: 'rebalance only, required there: where the funds come from; `amount` must be the sum of their amounts.',
    }),
    optimize: t.field({
      type: OptimizeGoalEnum,
      description: 'lend only, opt-in: NET_RETURN chooses the market (when chain is absent) by net return over horizonDays instead of the highest APY.',
    }),
    horizonDays: t.int({ description: 'With optimize only: the days earnings are counted over, 1-3650 (default 30).' }),
    speed: t.field({
      type: BridgeSpeedEnum,
      description: 'bridge, lend and rebalance: FAST (default, seconds, a fee of a few bps) or STANDARD (hard finality, no fee).',
    }),
  }),
});

builder.queryField('intent', (t) =>
  t.field({
    type: IntentRef,
    nullable: true,
    description:
      "One of the caller's intents (same as GET /v1/intents/:intentId); null with an INTENT_NOT_FOUND error when there is none (another account's answers the same).",
    args: { id: t.arg.id({ required: true, description: 'The intent id (intent_…).' }) },
    admission: 'getIntent',
    resolve: (_root, args, ctx) => getIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.queryField('intents', (t) =>
  t.field({
    type: IntentConnectionRef,
    nullable: true,
    description:
      "A wallet's intents, newest first (same as GET /v1/intents?walletId=), by Relay cursors both ways; null with a WALLET_NOT_FOUND error when the wallet is not the caller's.",
    args: {
      walletId: t.arg.id({ required: true, description: 'The wallet whose intents to list (svc_wallet_…).' }),
      status: t.arg({ type: IntentStatusEnum, description: 'Only intents in this status.' }),
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
    },
    admission: 'listIntents',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const filters = withoutNulls({ walletId: String(args.walletId), status: args.status });
      return paginate(args, (page) => listIntents(ctx.deps, principal, { ...filters, ...page }), ctx);
    },
  }),
);

builder.mutationField('createIntent', (t) =>
  t.field({
    type: IntentRef,
    nullable: true,
    description:
      'Creates a lend, withdraw, bridge or rebalance intent (same as POST /v1/intents). Honours the Idempotency-Key HTTP header. Null with its error when refused (e.g. INVALID_REQUEST, POLICY_VIOLATION).',
    args: { input: t.arg({ type: CreateIntentInput, required: true, description: 'The intent to create.' }) },
    admission: 'createIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const { sources, ...rest } = args.input;
      const body = withoutNulls({
        ...rest,
        walletId: String(args.input.walletId),
        // an absent protocol is a source of idle funds, as REST spells it null
        sources: sources?.map((src) => ({ ...src, protocol: src.protocol ?? null })),
      });
      const result = await submitIntent(ctx.deps, principal, body, ctx.idempotencyKey);
      // the record, not the REST view: GraphQL keeps amounts as exact decimal strings
      return getIntent(ctx.deps, principal, result.body.id);
    },
  }),
);

builder.mutationField('cancelIntent', (t) =>
  t.field({
    type: IntentRef,
    nullable: true,
    description:
      "Cancels an intent (same as POST /v1/intents/:intentId/cancel): a PENDING one is CANCELLED at once; a PLANNING or EXECUTING one records the request (cancelRequestedAt) and stops before its next step that has nothing signed, ending CANCELLED with `results` saying what completed (a step with a signed transaction always runs to its end; intentUpdated carries the change). A CANCELLED one is answered as it is. Null with INTENT_NOT_CANCELLABLE when it is COMPLETED or FAILED, INTENT_NOT_FOUND when it is not the caller's.",
    args: { id: t.arg.id({ required: true, description: 'The intent id (intent_…).' }) },
    admission: 'cancelIntent',
    resolve: (_root, args, ctx) => cancelIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);
