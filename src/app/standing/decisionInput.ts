import type { RateSample } from '../../domain/rateHistory';
import { ASSET_DECIMALS, STABLECOINS } from '../../domain/chains';
import { toUnits } from '../../domain/money';
import type { DecisionInput, Holding, MarketApy, MoveGasUnits, SampleCosts, StandingIntent } from '../../domain/standingIntent';
import { TYPICAL_GAS } from '../../ports/typicalGas';

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

/** The gas a move's transactions use, as previews and the net-return ranking count them. */
export const MOVE_GAS_UNITS: MoveGasUnits = {
  approve: Number(TYPICAL_GAS.approve),
  supply: Number(TYPICAL_GAS.supply),
  withdraw: Number(TYPICAL_GAS.withdraw),
  burn: Number(TYPICAL_GAS.burn),
  mint: Number(TYPICAL_GAS.mint),
};

/** The asset has no USD price at the sample (a non-stablecoin whose feed was not read): nothing can be weighed. */
export class UnpricedAssetError extends Error {
  override readonly name = 'UnpricedAssetError';
}

/**
 * Builds a decision's input the one way the live decider and the backtest
 * share. Markets are the standing intent's asset's samples, one per (chain,
 * protocol) (a sample naming its token is preferred to one recorded before
 * samples named it); each one's previous APY is its sample of the same token
 * at the previous sample minute (a sample without a token matches any), and
 * absent when the market has none (it then counts at this sample's APY).
 * The asset's USD price is the one recorded with the costs, stablecoins 1
 * without it; a non-stablecoin without one throws UnpricedAssetError.
 */
export function buildDecisionInput(sources: DecisionSources): DecisionInput {
  const { standing, costs } = sources;
  const asset = standing.asset;
  const assetUsd = costs.assetUsd?.[asset] ?? (STABLECOINS.includes(asset) ? 1 : undefined);
  if (assetUsd === undefined) throw new UnpricedAssetError(`no USD price of ${asset} at this sample`);
  const rule: DecisionInput['rule'] = { horizonDays: standing.horizonDays, minGainUsd: standing.minGainUsd, maxMovesPerDay: standing.maxMovesPerDay };
  if (standing.amount !== undefined) rule.amount = toUnits(standing.amount, asset);
  const input: DecisionInput = {
    rule,
    asset,
    assetUsd,
    decimals: ASSET_DECIMALS[asset],
    holdings: sources.holdings,
    markets: marketsOf(sources.samples, sources.previous, asset),
    costs,
    gasUnits: MOVE_GAS_UNITS,
    movesInLastDay: sources.movesInLastDay,
    intentInFlight: sources.intentInFlight,
  };
  if (sources.allowed) input.allowed = sources.allowed;
  return input;
}

const sameToken = (a: RateSample, b: RateSample) => a.token === undefined || b.token === undefined || a.token === b.token;

/** One market per (chain, protocol) of `asset`, with its previous APY where the previous sample has it. */
function marketsOf(samples: readonly RateSample[], previous: readonly RateSample[], asset: RateSample['asset']): MarketApy[] {
  const current = new Map<string, RateSample>();
  for (const s of samples) {
    if (s.asset !== asset) continue;
    const key = `${s.chain}/${s.protocol}`;
    const seen = current.get(key);
    if (!seen || (seen.token === undefined && s.token !== undefined)) current.set(key, s);
  }
  return [...current.values()].map((s) => {
    const candidates = previous.filter((p) => p.asset === asset && p.chain === s.chain && p.protocol === s.protocol && sameToken(p, s));
    const before = candidates.find((p) => p.token === s.token) ?? candidates[0];
    const m: MarketApy = { chain: s.chain, protocol: s.protocol, apy: s.apy };
    if (before) m.previousApy = before.apy;
    return m;
  });
}
