import { builder } from '../../builder';
import { ChainEnum, LendingProtocolEnum } from '../enums';
import type { MarketRef, SimulateResult, SimulatedMove, StrategyEarnings } from '../../../domain/standingIntent';
import { MarketApyRef, MarketRefType } from './markets';

/** What a backtest of a standing intent's rule answers (simulateStandingIntent). */

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

export const SimulateResultRef = builder.objectRef<SimulateResult>('StandingSimulation').implement({
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
