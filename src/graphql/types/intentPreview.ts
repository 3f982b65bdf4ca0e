import { builder } from '../builder';
import { ChainEnum, LendingProtocolEnum, StepTypeEnum, TokenAssetEnum, TransactionKindEnum, BridgeSpeedEnum } from './enums';
import { CreateIntentInput } from './intent/inputs';
import { IntentActionEnum } from './intent/type';
import { StrategyEnum } from './intent/plan';
import { requirePrincipal } from '../resolverHelpers';
import { createIntentCommandOf, createIntentFields } from '../commands/intent';
import {
  previewIntent,
  type IntentPreview,
  type PreviewAlternative,
  type PreviewSpeed,
  type PreviewStep,
  type PreviewTransaction,
} from '../../app/intents/previewIntent';
import type { LendingProtocol } from '../../domain/chains';

/**
 * Query.previewIntent: the plan the engine would run now for a
 * CreateIntentInput, priced (same use-case as POST /v1/intents/preview).
 */

const PreviewChoiceEnum = builder.enumType('PreviewChoice', {
  description: 'Which rule chose the market of a lend.',
  values: {
    BEST_APY: { value: 'bestApy' as const, description: 'The highest APY (the default).' },
    NET_RETURN: { value: 'netReturn' as const, description: 'The best net return over the horizon (optimize: NET_RETURN).' },
  },
});

const GasEstimateMethodEnum = builder.enumType('GasEstimateMethod', {
  description: 'How a gas figure was obtained.',
  values: {
    ESTIMATED: { value: 'estimated' as const, description: 'eth_estimateGas on the chain as it stands.' },
    SIMULATED: {
      value: 'simulated' as const,
      description: 'eth_call under a state override giving the wallet the funds and allowance the transactions before it bring.',
    },
    TYPICAL: { value: 'typical' as const, description: 'The figure of the kind measured on the sandbox (a CCTP mint needs the attestation of its burn).' },
  },
});

const PreviewTransactionRef = builder.objectRef<PreviewTransaction>('PreviewTransaction').implement({
  description: 'One transaction a previewed step would send, with its gas estimate.',
  fields: (t) => ({
    kind: t.field({ type: TransactionKindEnum, description: 'Which transaction of the step.', resolve: (x) => x.kind }),
    chain: t.field({ type: ChainEnum, description: 'The chain it is sent on.', resolve: (x) => x.chain }),
    gas: t.exposeString('gas', { description: 'Gas units (integer string).' }),
    gasUsd: t.exposeFloat('gasUsd', { description: "Gas × the chain's gas price now × its ETH/USD feed." }),
    estimate: t.field({ type: GasEstimateMethodEnum, description: 'How the gas was obtained.', resolve: (x) => x.estimate }),
  }),
});

const PreviewStepGasRef = builder.objectRef<PreviewStep['gas']>('PreviewStepGas').implement({
  description: 'The gas of one previewed step.',
  fields: (t) => ({
    units: t.exposeString('units', {
      description:
        "Gas of every transaction of the step (integer string); on a chain of user operations (account model 7702) the step closing the chain's operation also carries what the operation adds.",
    }),
    usd: t.exposeFloat('usd', { description: 'What that gas costs now, in USD.' }),
    transactions: t.field({ type: [PreviewTransactionRef], description: 'The transactions, in order.', resolve: (g) => g.transactions }),
  }),
});

const PreviewStepRef = builder.objectRef<PreviewStep>('PreviewStep').implement({
  description: 'A step of a previewed plan, priced.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position in the plan, from 0.' }),
    type: t.field({ type: StepTypeEnum, description: 'DEPOSIT, WITHDRAW or BRIDGE.', resolve: (s) => s.type }),
    chain: t.field({ type: ChainEnum, description: "The step's chain (a bridge's source).", resolve: (s) => s.chain }),
    from: t.field({ type: ChainEnum, nullable: true, description: 'Bridge: the source chain.', resolve: (s) => s.from ?? null }),
    to: t.field({ type: ChainEnum, nullable: true, description: 'Bridge: the destination chain.', resolve: (s) => s.to ?? null }),
    protocol: t.field({
      type: LendingProtocolEnum,
      nullable: true,
      description: 'Deposit or withdraw: the lending protocol.',
      resolve: (s) => (s.protocol ?? null) as LendingProtocol | null,
    }),
    amount: t.exposeString('amount', { description: 'What the step moves, token units.' }),
    amountUnits: t.exposeString('amountUnits', { description: 'The same in smallest units.' }),
    routeFee: t.exposeString('routeFee', { description: 'Route fee of a bridge (0 otherwise), token units.' }),
    routeFeeUnits: t.exposeString('routeFeeUnits', { description: 'The same in smallest units.' }),
    arrives: t.exposeString('arrives', { description: 'amount − routeFee, token units.' }),
    arrivesUnits: t.exposeString('arrivesUnits', { description: 'The same in smallest units.' }),
    routeFeeBps: t.float({
      nullable: true,
      description: "Bridge: the CCTP fee tier charged at the intent's speed, basis points (fractions allowed).",
      resolve: (s) => s.routeFeeBps ?? null,
    }),
    expectedWaitSeconds: t.int({
      nullable: true,
      description: "Bridge: typical wait for the attestation at the intent's speed on the public networks, seconds.",
      resolve: (s) => s.expectedWaitSeconds ?? null,
    }),
    apy: t.float({ nullable: true, description: 'Deposit: the market APY, percent.', resolve: (s) => s.apy ?? null }),
    expectedYearlyEarnings: t.string({
      nullable: true,
      description: 'Deposit: what it earns in a year at the APY, token units.',
      resolve: (s) => s.expectedYearlyEarnings ?? null,
    }),
    gas: t.field({ type: PreviewStepGasRef, description: 'The gas of the step.', resolve: (s) => s.gas }),
  }),
});

const PreviewTotalsRef = builder.objectRef<IntentPreview['totals']>('PreviewTotals').implement({
  description: 'Totals of a previewed plan.',
  fields: (t) => ({
    routeFees: t.exposeString('routeFees', { description: 'Route fees of every bridge, token units.' }),
    routeFeesUnits: t.exposeString('routeFeesUnits', { description: 'The same in smallest units.' }),
    gasUnits: t.exposeString('gasUnits', {
      description: "Gas of every transaction, as results.totalGasUsed counts it (the gas tank's top-up of the wallet is in neither).",
    }),
    gasUsd: t.exposeFloat('gasUsd', { description: 'What that gas costs now, in USD.' }),
    expectedYearlyEarnings: t.string({
      nullable: true,
      description: 'Lend: what the deposit earns in a year at the APY, token units.',
      resolve: (x) => x.expectedYearlyEarnings ?? null,
    }),
  }),
});

const PreviewSpeedRef = builder.objectRef<PreviewSpeed>('PreviewSpeed').implement({
  description: "A plan's bridges priced at one speed.",
  fields: (t) => ({
    speed: t.field({ type: BridgeSpeedEnum, description: 'FAST or STANDARD.', resolve: (s) => s.speed }),
    routeFees: t.exposeString('routeFees', { description: "CCTP fees of the plan's bridges at this speed's tier, token units." }),
    routeFeesUnits: t.exposeString('routeFeesUnits', { description: 'The same in smallest units.' }),
    expectedWaitSeconds: t.exposeInt('expectedWaitSeconds', {
      description: 'Typical wait for the attestation at this speed on the public networks, seconds (the sandbox attests in milliseconds).',
    }),
  }),
});

const PreviewAlternativeRef = builder.objectRef<PreviewAlternative>('PreviewAlternative').implement({
  description: 'Where a lend would go under one choice rule, with its net return over the horizon (typical gas, as the ranking counts it).',
  fields: (t) => ({
    choice: t.field({ type: PreviewChoiceEnum, description: 'The rule.', resolve: (a) => a.choice }),
    chain: t.field({ type: ChainEnum, description: 'The chain of the market.', resolve: (a) => a.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol of the market.', resolve: (a) => a.protocol as LendingProtocol }),
    apy: t.exposeFloat('apy', { description: 'Supply APY, percent.' }),
    bridges: t.exposeInt('bridges', { description: 'Bridges needed to gather the funds there.' }),
    amount: t.exposeString('amount', { description: 'What would be deposited, token units.' }),
    earningsUsd: t.exposeFloat('earningsUsd', { description: 'amount × APY × horizonDays / 365, in USD.' }),
    routeFeesUsd: t.exposeFloat('routeFeesUsd', { description: 'Route fees, in USD.' }),
    gasUsd: t.exposeFloat('gasUsd', { description: 'Gas of every step, in USD.' }),
    netReturnUsd: t.exposeFloat('netReturnUsd', { description: 'earningsUsd − routeFeesUsd − gasUsd.' }),
  }),
});

const IntentPreviewRef = builder.objectRef<IntentPreview>('IntentPreview').implement({
  description: 'The plan the engine would run now for an intent, priced; nothing stored or sent (same as POST /v1/intents/preview).',
  fields: (t) => ({
    walletId: t.exposeID('walletId', { description: 'The wallet.' }),
    action: t.field({ type: IntentActionEnum, description: 'LEND, WITHDRAW or BRIDGE.', resolve: (p) => p.action }),
    asset: t.field({ type: TokenAssetEnum, description: 'The token moved.', resolve: (p) => p.asset }),
    requestedAmount: t.exposeString('requestedAmount', { description: 'What was asked, token units.' }),
    requestedAmountUnits: t.exposeString('requestedAmountUnits', { description: 'The same in smallest units.' }),
    amount: t.exposeString('amount', { description: 'What the plan finally deposits, withdraws or delivers (after route fees), token units.' }),
    amountUnits: t.exposeString('amountUnits', { description: 'The same in smallest units.' }),
    strategy: t.field({ type: StrategyEnum, description: 'The strategy of the plan.', resolve: (p) => p.strategy }),
    reasoning: t.exposeString('reasoning', { description: 'The plan explained, as the intent would record it.' }),
    choice: t.field({
      type: PreviewChoiceEnum,
      nullable: true,
      description: 'Lend without chain: which rule chose the market.',
      resolve: (p) => p.choice ?? null,
    }),
    horizonDays: t.int({ nullable: true, description: 'Lend without chain: the days the net return is counted over.', resolve: (p) => p.horizonDays ?? null }),
    speed: t.field({
      type: BridgeSpeedEnum,
      nullable: true,
      description: "Bridge and lend: the speed the plan's bridges go at.",
      resolve: (p) => p.speed ?? null,
    }),
    speeds: t.field({
      type: [PreviewSpeedRef],
      nullable: true,
      description: 'When the plan bridges: its bridges priced at each speed (the plan itself is priced at speed).',
      resolve: (p) => p.speeds ?? null,
    }),
    apy: t.float({ nullable: true, description: 'APY of the market lent to (or withdrawn from), percent; null for a bridge.', resolve: (p) => p.apy }),
    steps: t.field({ type: [PreviewStepRef], description: 'The steps, in order, priced.', resolve: (p) => p.steps }),
    totals: t.field({ type: PreviewTotalsRef, description: 'Totals of the plan.', resolve: (p) => p.totals }),
    alternatives: t.field({
      type: [PreviewAlternativeRef],
      nullable: true,
      description: 'Lend without chain, when the highest APY and the best net return choose different markets: both.',
      resolve: (p) => p.alternatives ?? null,
    }),
  }),
});

builder.queryField('previewIntent', (t) =>
  t.field({
    type: IntentPreviewRef,
    nullable: true,
    description:
      'The plan the engine would run now for this intent, with route fees, gas (units and USD), what arrives and the expected earnings per step; nothing stored or sent (same as POST /v1/intents/preview). Null with INSUFFICIENT_FUNDS (or POLICY_VIOLATION) when the intent would fail planning.',
    args: { input: t.arg({ type: CreateIntentInput, required: true, description: 'The intent to preview (the input of createIntent).' }) },
    admission: 'previewIntent',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return previewIntent(ctx.deps, principal, createIntentCommandOf(createIntentFields(args.input)));
    },
  }),
);
