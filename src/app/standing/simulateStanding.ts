import type { Clock } from '../../domain/clock';
import type { SimulateParams, SimulateResult } from '../../domain/standingIntent';
import type { RateHistoryRepo } from '../../ports/store';

export interface SimulateStandingDeps {
  rateHistory: RateHistoryRepo;
  clock: Pick<Clock, 'now'>;
}

/**
 * The backtest: replays the recorded APY history of the asset's markets
 * through the live engine's decision. PLACEHOLDER until it is built.
 */
export async function simulateStanding(deps: SimulateStandingDeps, params: SimulateParams): Promise<SimulateResult> {
  void deps;
  throw new Error(`the backtest is not built yet (${params.asset})`);
}
