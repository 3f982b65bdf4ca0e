import type { RateSample } from '../../domain/rateHistory';
import type { DecisionInput, Holding, SampleCosts, StandingIntent } from '../../domain/standingIntent';

/** What one decision is built from, live or in a backtest. */
export interface DecisionSources {
  standing: Pick<StandingIntent, 'asset' | 'amount' | 'horizonDays' | 'minGainUsd' | 'maxMovesPerDay'>;
  holdings: readonly Holding[];
  /** The asset's markets at the sample deciding, and at the sample before it (empty: none). */
  samples: readonly RateSample[];
  previous: readonly RateSample[];
  costs: SampleCosts;
  movesInLastDay: number;
  intentInFlight: boolean;
  allowed?: DecisionInput['allowed'];
}

/**
 * Builds a decision's input the one way the live decider and the backtest
 * share. PLACEHOLDER until it is built.
 */
export function buildDecisionInput(sources: DecisionSources): DecisionInput {
  throw new Error(`not built yet (${sources.standing.asset})`);
}
