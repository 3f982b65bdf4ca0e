import type { AppDeps } from '../deps';
import type { SimulateResult } from '../../domain/standingIntent';
import { parseSimulate } from '../../domain/schemas/standing';
import { simulateStanding } from './simulateStanding';

/**
 * POST /standing-intents/simulate and simulateStandingIntent: the body read
 * into a backtest's question (its window defaulted at the service's time),
 * answered by the backtest over the recorded APY history.
 */
export async function simulateRequest(deps: Pick<AppDeps, 'store' | 'clock'>, body: unknown): Promise<SimulateResult> {
  const params = parseSimulate(body, deps.clock.now());
  return simulateStanding({ rateHistory: deps.store.rateHistory, clock: deps.clock }, params);
}
