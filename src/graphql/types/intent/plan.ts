import { builder } from '../../builder';
import { ChainEnum, LendingProtocolEnum, TokenAssetEnum, describedValues } from '../enums';
import type { LendingProtocol } from '../../../domain/chains';
import type { BridgeStep, DepositStep, ExecutionPlan, Step, StepStatus, Strategy, WithdrawStep } from '../../../domain/intent';

/** An intent's execution plan: its strategy and its steps (the `Step` interface, one type per kind). */

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

export const ExecutionPlanRef = builder.objectRef<ExecutionPlan>('ExecutionPlan').implement({
  description: 'How the engine reaches an intent: a strategy and ordered steps.',
  fields: (t) => ({
    strategy: t.field({ type: StrategyEnum, description: 'How the plan reaches the goal.', resolve: (p) => p.strategy }),
    steps: t.field({ type: [StepRef], description: 'The steps, in execution order.', resolve: (p) => p.steps }),
    reasoning: t.exposeString('reasoning', { description: 'Why this plan, in words.' }),
  }),
});
