import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import type { SimulateResult } from '../../domain/standingIntent';
import { CHAINS, type ChainName } from '../../domain/chains';
import { CREDIT_COST } from '../../domain/plans';
import { mainNetworksAllowed } from '../../domain/environment';
import { parseSimulate } from '../../domain/schemas/standing';
import { assertChainsUsable } from '../chainAccess';
import { billedOperations } from '../accounts/billedOperations';
import { reserveCreditUnits } from '../accounts/credits';
import { backtestCredits, marketsToPrice, windowDays } from './backtestCost';
import { simulateStanding } from './simulateStanding';
import { turnSlice } from './replaySlices';

export type SimulateRequestDeps = Pick<AppDeps, 'store' | 'clock' | 'environment' | 'backtests' | 'onCreditsCharged'> & {};

export interface SimulateAnswer {
  result: SimulateResult;
  /** What the backtest costs in all (backtestCredits), the front door's base price included. */
  credits: number;
  /** The month's credit counter after this backtest's charge beyond the base price (for X-Credits-Remaining); null when none was taken. */
  creditsUsed: number | null;
}

/**
 * POST /standing-intents/simulate and simulateStandingIntent: the body read
 * into a backtest's question (its window defaulted at the service's time),
 * answered by the backtest over the recorded APY history, as `principal`:
 * - its plan's chains apply (a named start on a main network the plan cannot
 *   use is 403 PLAN_RESTRICTED, as on every route; markets on such chains
 *   are not replayed);
 * - one backtest per account and a few per instance run at once (429
 *   BACKTEST_LIMIT_EXCEEDED with Retry-After, before anything is charged);
 * - it costs backtestCredits(days, markets): the front door has reserved the
 *   operation's base price (CREDIT_COST) already, the rest is reserved here
 *   before the replay, and given back if it fails.
 */
export async function simulateRequest(deps: SimulateRequestDeps, principal: Principal, body: unknown): Promise<SimulateAnswer> {
  const params = parseSimulate(body, deps.clock.now());
  if (params.start) assertChainsUsable(principal, [{ field: 'start.chain', chain: params.start.chain }], deps.environment);
  const mainNetworks = mainNetworksAllowed(principal.account.plan, deps.environment);
  const usable = (chain: ChainName) => mainNetworks || CHAINS[chain].testnet;

  const fromMs = Date.parse(params.from);
  const toMs = Date.parse(params.to);
  const markets = await marketsToPrice(deps.store.rateHistory, { asset: params.asset, fromMs, toMs }, usable);
  const credits = backtestCredits(windowDays(fromMs, toMs), markets);

  const release = deps.backtests.take(principal.account.id);
  try {
    const billed = billedOperations(principal, ['simulateStandingIntent']).length > 0;
    const extra = billed ? credits - CREDIT_COST.simulateStandingIntent : 0;
    const reserved = extra > 0 ? await reserveCreditUnits(deps, principal.account, extra) : undefined;
    let result: SimulateResult;
    try {
      // the backtests running share each turn of the event loop
      const sliceMs = () => turnSlice(deps.backtests.running);
      result = await simulateStanding({ rateHistory: deps.store.rateHistory, clock: deps.clock, sliceMs }, params, { chains: usable });
    } catch (e) {
      await reserved?.refund();
      throw e;
    }
    if (reserved && principal.via === 'apiKey') deps.onCreditsCharged?.('simulateStandingIntent', extra);
    return { result, credits, creditsUsed: reserved?.usedAfter ?? null };
  } finally {
    release();
  }
}
