import { getStandingEarnings, type StandingEarningsView } from '../../app/standing/standingEarnings';
import { builder } from '../builder';
import { ChainEnum, LendingProtocolEnum, TokenAssetEnum, describedValues } from './enums';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from './connection';
import { NodeRef } from './node';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';
import {
  createStandingIntent,
  deleteStandingIntent,
  getStandingIntent,
  listStandingDecisions,
  listStandingIntents,
  pauseStandingIntent,
  resumeStandingIntent,
} from '../../app/standing/manageStanding';
import { simulateRequest } from '../../app/standing/simulateRequest';
import { watchDecisions } from '../../app/standing/watchDecisions';
import type { DecisionView, StandingIntentView } from '../../app/standing/standingView';
import {
  STANDING_DEFAULTS,
  type DecisionNumbers,
  type DecisionOutcome,
  type MarketRef,
  type MoveSource,
  type SimulateResult,
  type SimulatedMove,
  type SkipReason,
  type StandingDecision,
  type StandingIntentStatus,
  type StrategyEarnings,
} from '../../domain/standingIntent';

/**
 * Standing intents over GraphQL: the same use-cases as /v1/standing-intents.
 * A StandingIntent is a Node (svc_standing_…); its `decisions` connection is
 * part of the read of the standing intent (no credit of its own, like a
 * wallet's policy).
 */

const StatusEnum = builder.enumType('StandingIntentStatus', {
  description: 'Whether a standing intent is decided on.',
  values: describedValues<StandingIntentStatus>({
    active: 'Decided on every rate sample and when funds arrive on the wallet.',
    paused: 'Nothing is decided until it is resumed.',
  }),
});

const OutcomeEnum = builder.enumType('StandingDecisionOutcome', {
  description: 'What a decision did.',
  values: describedValues<DecisionOutcome>({
    rebalanced: 'It moved the funds: a rebalance intent was submitted (intentId).',
    skipped: 'It did not move (reason).',
  }),
});

const ReasonEnum = builder.enumType('StandingSkipReason', {
  description: 'Why a decision did not move.',
  values: describedValues<SkipReason>({
    no_funds: 'The wallet holds none of the asset to move.',
    already_best: 'The funds are already in the market with the best net yield.',
    below_threshold: "The move's net gain over the horizon did not exceed the threshold.",
    unconfirmed_rate: 'The better rate has not held for two samples yet.',
    move_limit: 'The rule made its maxMovesPerDay moves in the last 24 hours.',
    policy: "The wallet's spending policy does not allow the move (rule), or the rebalance intent was refused.",
    intent_in_flight: 'An intent of the wallet is still running.',
    paused: 'The standing intent was paused before the move was submitted.',
    interrupted: 'The instance deciding the move stopped before submitting it, and the move was too old to submit later.',
  }),
});

const TriggerEnum = builder.enumType('StandingDecisionTrigger', {
  description: 'What made the service decide.',
  values: describedValues<StandingDecision['trigger']>({
    rate_sample: 'A new rate sample.',
    funds_arrived: 'Funds arrived on the wallet.',
  }),
});

const MarketRefType = builder.objectRef<MarketRef>('LendingMarket').implement({
  description: 'A lending market: a protocol on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (m) => m.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol.', resolve: (m) => m.protocol }),
  }),
});

const MarketApyRef = builder.objectRef<MarketRef & { apy: number }>('LendingMarketApy').implement({
  description: 'A lending market and its supply APY as a decision counted it.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (m) => m.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol.', resolve: (m) => m.protocol }),
    apy: t.exposeFloat('apy', { description: 'Supply APY, percent.' }),
  }),
});

const MoveSourceRef = builder.objectRef<MoveSource>('StandingMoveSource').implement({
  description: 'Where some of the moved funds come from: a position withdrawn, or idle funds on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (s) => s.chain }),
    protocol: t.field({ type: LendingProtocolEnum, nullable: true, description: 'The market withdrawn from; null: idle funds.', resolve: (s) => s.protocol }),
    amount: t.exposeString('amount', { description: 'Token units it brings (decimal string).' }),
    apy: t.exposeFloat('apy', { description: 'The APY it earned, as counted.' }),
  }),
});

const MoveCostsRef = builder.objectRef<DecisionNumbers['costs']>('StandingMoveCosts').implement({
  description: "Every cost of a move, USD at the sample's prices.",
  fields: (t) => ({
    withdrawGasUsd: t.exposeFloat('withdrawGasUsd', { description: 'Gas of the withdrawals.' }),
    bridgeFeeUsd: t.exposeFloat('bridgeFeeUsd', { description: 'The CCTP fee.' }),
    bridgeGasUsd: t.exposeFloat('bridgeGasUsd', { description: 'Gas of the burns and mints.' }),
    depositGasUsd: t.exposeFloat('depositGasUsd', { description: 'Gas of the approval and supply.' }),
    totalUsd: t.exposeFloat('totalUsd', { description: 'All of them.' }),
  }),
});

const NumbersRef = builder.objectRef<DecisionNumbers>('StandingDecisionNumbers').implement({
  description: 'The numbers behind a decision, whether it moved or not.',
  fields: (t) => ({
    target: t.field({ type: MarketApyRef, nullable: true, description: 'The market a move goes (or would go) to; null when none.', resolve: (n) => n.target }),
    sources: t.field({ type: [MoveSourceRef], description: 'Where the moved funds come from.', resolve: (n) => n.sources }),
    amount: t.exposeString('amount', { description: 'Token units moved; "0" when nothing moves.' }),
    costs: t.field({ type: MoveCostsRef, description: 'What the move costs.', resolve: (n) => n.costs }),
    gainUsd: t.exposeFloat('gainUsd', { description: 'Extra yield over the horizon, USD, before costs.' }),
    netGainUsd: t.exposeFloat('netGainUsd', { description: 'gainUsd less every cost.' }),
    thresholdUsd: t.exposeFloat('thresholdUsd', {
      description: `What netGainUsd had to exceed: the larger of minGainUsd and ${STANDING_DEFAULTS.minGainFraction * 100} % of gainUsd.`,
    }),
    horizonDays: t.exposeInt('horizonDays', { description: 'The horizon the gain was counted over.' }),
  }),
});

export const StandingDecisionRef = builder.objectRef<DecisionView>('StandingDecision').implement({
  description: 'One decision of a standing intent (same as GET /v1/standing-intents/:id/decisions lists it); one per sample minute at most.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'svc_decision_… (ordered by time).' }),
    standingIntentId: t.exposeID('standingIntentId', { description: 'The standing intent (svc_standing_…).' }),
    walletId: t.exposeID('walletId', { description: 'Its wallet.' }),
    sampleAt: t.expose('sampleAt', { type: 'DateTime', description: 'The sample minute decided on.' }),
    decidedAt: t.expose('decidedAt', { type: 'DateTime', description: 'When it was decided.' }),
    trigger: t.field({ type: TriggerEnum, description: 'What made the service decide.', resolve: (d) => d.trigger }),
    outcome: t.field({ type: OutcomeEnum, description: 'Moved or not.', resolve: (d) => d.outcome }),
    reason: t.field({ type: ReasonEnum, nullable: true, description: 'Why it did not move; null when it moved.', resolve: (d) => d.reason }),
    rule: t.exposeString('rule', { nullable: true, description: 'The spending policy rule that refused the move (reason POLICY); null otherwise.' }),
    intentId: t.exposeID('intentId', { nullable: true, description: 'The rebalance intent a move submitted (intent_…); null otherwise.' }),
    numbers: t.field({ type: NumbersRef, description: 'The numbers behind it.', resolve: (d) => d.numbers }),
  }),
});

const DecisionConnectionRef = connectionTypes<DecisionView, DecisionView>(
  'StandingDecision',
  StandingDecisionRef,
  { edge: 'A decision', one: 'decision', many: 'decisions', within: 'log', connection: "A page of a standing intent's decisions, newest first." },
  (d) => d,
);

const StandingEarningsRef = builder.objectRef<StandingEarningsView>('StandingIntentEarnings').implement({
  description: "What a standing intent's asset earned on the wallet, and what its moves cost (same as GET /v1/standing-intents/:id/earnings).",
  fields: (t) => ({
    principal: t.exposeString('principal', {
      nullable: true,
      description: 'What the wallet put into its positions of the asset and kept there, token units; null: no position the service supplied.',
    }),
    earned: t.exposeString('earned', {
      nullable: true,
      description:
        "Interest the asset earned on the wallet in every market it was in (the protocols' index growth of what the service supplied; moves carry it over, withdraws realise it), token units, exact.",
    }),
    external: t.string({
      nullable: true,
      description: "What others supplied to the wallet's positions of the asset (not interest), token units; null when a position's ledger has no index.",
      resolve: (e) => e.external ?? null,
    }),
    moves: t.exposeInt('moves', { description: "Rebalance intents of the wallet's asset since the standing intent was created that spent anything." }),
    movesCostUsd: t.exposeFloat('movesCostUsd', { description: 'Their gas and CCTP fees, USD.' }),
    earnedUsd: t.exposeFloat('earnedUsd', { nullable: true, description: '`earned` in USD (stablecoins 1:1; null for other assets).' }),
    netUsd: t.exposeFloat('netUsd', { nullable: true, description: 'earnedUsd − movesCostUsd: what the strategy earned net of its costs.' }),
  }),
});

export const StandingIntentRef = builder.objectRef<StandingIntentView>('StandingIntent').implement({
  description:
    "A standing intent (svc_standing_…): keeps a wallet's asset lent in the market with the best net yield, moving it when the gain beats every cost (same resource as /v1/standing-intents).",
  interfaces: [NodeRef],
  fields: (t) => ({
    walletId: t.exposeID('walletId', { description: 'The wallet whose funds it keeps lent.' }),
    asset: t.field({ type: TokenAssetEnum, description: 'The token kept lent.', resolve: (s) => s.asset }),
    amount: t.exposeString('amount', { nullable: true, description: "Token units kept lent; null: all of the wallet's balance of the asset." }),
    horizonDays: t.exposeInt('horizonDays', { description: "The days a move's extra yield is counted over." }),
    minGainUsd: t.exposeFloat('minGainUsd', { description: 'USD a move must gain over the horizon, net of its costs, at least.' }),
    maxMovesPerDay: t.exposeInt('maxMovesPerDay', { description: 'Moves at most per rolling 24 hours.' }),
    status: t.field({ type: StatusEnum, description: 'Active or paused.', resolve: (s) => s.status }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last paused, resumed or created.' }),
    version: t.exposeInt('version', { description: '+1 on every change (pause, resume, each decision recorded on it).' }),
    lastDecisionAt: t.expose('lastDecisionAt', {
      type: 'DateTime',
      nullable: true,
      description: 'The sample minute of its last decision; null before the first.',
    }),
    lastIntentId: t.exposeID('lastIntentId', { nullable: true, description: 'The rebalance intent of its last move; null before the first.' }),
    earnings: t.field({
      type: StandingEarningsRef,
      description:
        "What the wallet's positions of the asset earned and what its moves cost (reads the positions on chain); part of the read of the standing intent.",
      resolve: (s, _args, ctx) => getStandingEarnings(ctx.deps, requirePrincipal(ctx), s.id),
    }),
    decisions: t.field({
      type: DecisionConnectionRef,
      description: 'Its decisions, newest first, by Relay cursors both ways (kept 90 days); part of the read of the standing intent.',
      args: {
        first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
        after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
        last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
        before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
      },
      resolve: (s, args, ctx) => {
        const principal = requirePrincipal(ctx);
        return paginate(args, (page) => listStandingDecisions(ctx.deps, principal, s.id, page), ctx);
      },
    }),
  }),
});

const StandingConnectionRef = connectionTypes<StandingIntentView, StandingIntentView>(
  'StandingIntent',
  StandingIntentRef,
  {
    edge: 'A standing intent',
    one: 'standing intent',
    many: 'standing intents',
    within: 'list',
    connection: "A page of the account's standing intents, newest first.",
  },
  (s) => s,
);

builder.queryField('standingIntents', (t) =>
  t.field({
    type: StandingConnectionRef,
    nullable: true,
    description:
      "The account's standing intents, newest first (same as GET /v1/standing-intents), by Relay cursors both ways; null with its error when refused.",
    args: {
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
    },
    admission: 'listStandingIntents',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return paginate(args, (page) => listStandingIntents(ctx.deps, principal, page), ctx);
    },
  }),
);

builder.queryField('standingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      "One of the account's standing intents (same as GET /v1/standing-intents/:standingIntentId); null with a STANDING_INTENT_NOT_FOUND error when there is none (another account's answers the same).",
    args: { id: t.arg.id({ required: true, description: 'The standing intent id (svc_standing_…).' }) },
    admission: 'getStandingIntent',
    resolve: (_root, args, ctx) => getStandingIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.mutationField('createStandingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      "Keeps a wallet's asset lent in the market with the best net yield (same as POST /v1/standing-intents); one per wallet and asset. Honours the Idempotency-Key HTTP header. Null with its error when refused (INVALID_REQUEST naming every bad field, WALLET_NOT_FOUND, STANDING_INTENT_ALREADY_EXISTS with the existing one's id).",
    args: {
      walletId: t.arg.id({ required: true, description: 'One of your wallets (svc_wallet_…).' }),
      asset: t.arg({ type: TokenAssetEnum, required: true, description: 'The token kept lent; the wallet must have a chain where it exists.' }),
      amount: t.arg.string({ description: "Token units to keep lent (decimal string, at least 0.01); absent: all of the wallet's balance." }),
      horizonDays: t.arg.int({ description: `The days a move's gain is counted over, 1-365 (default ${STANDING_DEFAULTS.horizonDays}).` }),
      minGainUsd: t.arg.float({ description: `USD a move must gain net of its costs, at least (default ${STANDING_DEFAULTS.minGainUsd}).` }),
      maxMovesPerDay: t.arg.int({ description: `Moves at most per rolling 24 hours, 1-24 (default ${STANDING_DEFAULTS.maxMovesPerDay}).` }),
    },
    admission: 'createStandingIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls({ ...args, walletId: String(args.walletId) });
      return (await createStandingIntent(ctx.deps, principal, body, ctx.idempotencyKey)).body;
    },
  }),
);

builder.mutationField('pauseStandingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      'Pauses a standing intent: nothing is decided until it is resumed (same as POST /v1/standing-intents/:id/pause). Null with its error when refused.',
    args: { id: t.arg.id({ required: true, description: 'The standing intent (svc_standing_…).' }) },
    admission: 'pauseStandingIntent',
    resolve: (_root, args, ctx) => pauseStandingIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.mutationField('resumeStandingIntent', (t) =>
  t.field({
    type: StandingIntentRef,
    nullable: true,
    description:
      'Resumes a paused standing intent, decided again from the next sample (same as POST /v1/standing-intents/:id/resume). Null with its error when refused.',
    args: { id: t.arg.id({ required: true, description: 'The standing intent (svc_standing_…).' }) },
    admission: 'resumeStandingIntent',
    resolve: (_root, args, ctx) => resumeStandingIntent(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.mutationField('deleteStandingIntent', (t) =>
  t.field({
    type: 'Boolean',
    nullable: true,
    description:
      'Deletes a standing intent and its decisions (same as DELETE /v1/standing-intents/:id): true when deleted; null with its error when refused (STANDING_INTENT_NOT_FOUND).',
    args: { id: t.arg.id({ required: true, description: 'The standing intent to delete (svc_standing_…).' }) },
    admission: 'deleteStandingIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return (await deleteStandingIntent(ctx.deps, principal, String(args.id)), true);
    },
  }),
);

const EarningsRef = builder.objectRef<StrategyEarnings>('StrategyEarnings').implement({
  description: "A strategy's outcome over a backtest's window, USD.",
  fields: (t) => ({
    earnedUsd: t.exposeFloat('earnedUsd', { description: 'Interest earned.' }),
    costsUsd: t.exposeFloat('costsUsd', { description: 'What moves cost.' }),
    netUsd: t.exposeFloat('netUsd', { description: 'earnedUsd less costsUsd.' }),
  }),
});

const StayedRef = builder.objectRef<StrategyEarnings & { market: MarketRef | null }>('StayedEarnings').implement({
  description: 'Staying all along in one market, USD.',
  fields: (t) => ({
    market: t.field({
      type: MarketRefType,
      nullable: true,
      description: 'The market stayed in; null when the window has no sample.',
      resolve: (e) => e.market,
    }),
    earnedUsd: t.exposeFloat('earnedUsd', { description: 'Interest earned.' }),
    costsUsd: t.exposeFloat('costsUsd', { description: 'What moves cost (none).' }),
    netUsd: t.exposeFloat('netUsd', { description: 'earnedUsd less costsUsd.' }),
  }),
});

const SimulatedMoveRef = builder.objectRef<SimulatedMove>('SimulatedMove').implement({
  description: 'One move a backtest made.',
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime', description: 'The sample minute of the move.' }),
    from: t.field({ type: MarketApyRef, description: 'The market left.', resolve: (m) => m.from }),
    to: t.field({ type: MarketApyRef, description: 'The market moved into.', resolve: (m) => m.to }),
    amount: t.exposeString('amount', { description: 'Token units moved.' }),
    costUsd: t.exposeFloat('costUsd', { description: 'What the move cost.' }),
    netGainUsd: t.exposeFloat('netGainUsd', { description: 'Its expected gain over the horizon, net of costs.' }),
  }),
});

const SeriesRef = builder.objectRef<SimulateResult['series'][number]>('SimulatedApySeries').implement({
  description: "A market's APY per sample of a backtest.",
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, description: 'The chain.', resolve: (s) => s.chain }),
    protocol: t.field({ type: LendingProtocolEnum, description: 'The lending protocol.', resolve: (s) => s.protocol }),
    points: t.field({ type: 'JSON', description: '[at, apy] pairs, oldest first.', resolve: (s) => s.points as never }),
  }),
});

const SimulateResultRef = builder.objectRef<SimulateResult>('StandingSimulation').implement({
  description: "A backtest's answer: the rule against staying put (same as POST /v1/standing-intents/simulate).",
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime', description: 'Start of the replay.' }),
    to: t.expose('to', { type: 'DateTime', description: 'End of the replay.' }),
    samples: t.exposeInt('samples', { description: 'Sample minutes replayed.' }),
    moves: t.field({ type: [SimulatedMoveRef], description: 'Every move the rule made, oldest first.', resolve: (r) => r.moves }),
    strategy: t.field({ type: EarningsRef, description: "The standing intent's rule, moves and costs included.", resolve: (r) => r.strategy }),
    todaysBest: t.field({ type: StayedRef, description: 'Staying all along in the market best at the last sample.', resolve: (r) => r.todaysBest }),
    firstMarket: t.field({ type: StayedRef, description: 'Staying all along in the market the funds started in.', resolve: (r) => r.firstMarket }),
    series: t.field({ type: [SeriesRef], description: "Each market's APY per sample, for a chart.", resolve: (r) => r.series }),
    cumulative: t.field({
      type: 'JSON',
      description: '[at, strategyUsd, firstMarketUsd] per sample: cumulative earnings.',
      resolve: (r) => r.cumulative as never,
    }),
  }),
});

const MarketInput = builder.inputType('LendingMarketInput', {
  description: 'A lending market: a protocol on a chain.',
  fields: (t) => ({
    chain: t.field({ type: ChainEnum, required: true, description: 'The chain.' }),
    protocol: t.field({ type: LendingProtocolEnum, required: true, description: 'The lending protocol.' }),
  }),
});

builder.mutationField('simulateStandingIntent', (t) =>
  t.field({
    type: SimulateResultRef,
    nullable: true,
    description:
      'Backtests a rule over the recorded APY history through the same decision the service takes live (same as POST /v1/standing-intents/simulate); creates nothing. Costs max(5, ceil(days × markets / 10)) credits: days the window (a started day counting whole), markets those of the asset recorded in its first or last hour on the chains the plan may use (at least 1); 30 days of 4 markets cost 12, 90 days 36. One backtest per account and three per instance run at once: another is refused with BACKTEST_LIMIT_EXCEEDED (HTTP 429, details.scope account or instance, retryAfterSeconds) before anything is charged. Null with its error when refused.',
    args: {
      asset: t.arg({ type: TokenAssetEnum, required: true, description: 'The token whose markets are replayed.' }),
      amount: t.arg.string({ required: true, description: 'What the strategy keeps lent, in token units.' }),
      horizonDays: t.arg.int({ description: `The days a move's gain is counted over (default ${STANDING_DEFAULTS.horizonDays}).` }),
      minGainUsd: t.arg.float({ description: `USD a move must gain net of its costs, at least (default ${STANDING_DEFAULTS.minGainUsd}).` }),
      maxMovesPerDay: t.arg.int({ description: `Moves at most per rolling 24 hours (default ${STANDING_DEFAULTS.maxMovesPerDay}).` }),
      from: t.arg({ type: 'DateTime', description: 'Start of the replay (default 30 days before `to`).' }),
      to: t.arg({ type: 'DateTime', description: 'End of the replay (default now); at most 90 days after `from`.' }),
      start: t.arg({ type: MarketInput, description: 'The market the funds start in (default: the best at the first sample).' }),
    },
    admission: 'simulateStandingIntent',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d);
      const body = withoutNulls({ ...args, from: iso(args.from), to: iso(args.to), start: args.start ?? undefined });
      // simulateRequest takes what the backtest costs beyond the base price its admission (the operation's prepayment, or its own reservation) pays.
      return (await simulateRequest(ctx.deps, principal, body)).result;
    },
  }),
);

builder.subscriptionField('standingIntentDecisions', (t) =>
  t.field({
    type: StandingDecisionRef,
    description:
      "A standing intent's decisions from now on, each once it is recorded (again if a move settles differently: its intent, or a refusal), whichever instance took it. Costs 1 credit per subscription.",
    args: {
      standingIntentId: t.arg.id({
        required: true,
        description: "The standing intent to follow (svc_standing_…); STANDING_INTENT_NOT_FOUND unless it is one of your account's.",
      }),
    },
    admission: 'listStandingDecisions',
    subscribe: (_root, args, ctx) => watchDecisions(ctx.deps, requirePrincipal(ctx), String(args.standingIntentId)),
    resolve: (decision: DecisionView) => decision,
  }),
);
