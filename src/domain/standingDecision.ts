import type { DecisionInput, DecisionResult } from './standingIntent';

/**
 * Decides whether a standing intent moves its funds at one sample. Pure: the
 * live engine and the backtest call it with inputs built the same way.
 * PLACEHOLDER until the decision is built: never moves.
 */
export function decide(input: DecisionInput): DecisionResult {
  return {
    move: false,
    reason: 'no_funds',
    numbers: {
      target: null,
      sources: [],
      amount: '0',
      costs: { withdrawGasUsd: 0, bridgeFeeUsd: 0, bridgeGasUsd: 0, depositGasUsd: 0, totalUsd: 0 },
      gainUsd: 0,
      netGainUsd: 0,
      thresholdUsd: input.rule.minGainUsd,
      horizonDays: input.rule.horizonDays,
    },
  };
}
