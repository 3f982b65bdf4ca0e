import { builder } from '../../builder';
import { ChainEnum, LendingProtocolEnum, describedValues } from '../enums';
import { connectionTypes } from '../connection';
import type { DecisionView } from '../../../app/standing/standingView';
import {
  STANDING_DEFAULTS,
  type DecisionNumbers,
  type DecisionOutcome,
  type MoveSource,
  type SkipReason,
  type StandingDecision,
} from '../../../domain/standingIntent';
import { MarketApyRef } from './markets';

/** A standing intent's decisions: what it decided, why, and the numbers behind it. */

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

export const DecisionConnectionRef = connectionTypes<DecisionView, DecisionView>(
  'StandingDecision',
  StandingDecisionRef,
  { edge: 'A decision', one: 'decision', many: 'decisions', within: 'log', connection: "A page of a standing intent's decisions, newest first." },
  (d) => d,
);
