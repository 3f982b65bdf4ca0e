import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { assertChainsUsable } from '../chainAccess';
import type { MarketRate } from '../../chain/port';
import type { ChainName, TokenAsset } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { fetchFresh } from '../caches';

export interface YieldRate {
  chain: ChainName;
  protocol: string;
  asset: TokenAsset;
  /** Percent, rounded to 2 decimals. */
  apy: number;
}

export interface YieldReport {
  rates: YieldRate[];
  best: { chain: ChainName; protocol: string; asset: TokenAsset; apy: number; reasoning: string } | null;
}

export interface GetYieldsParams {
  asset?: TokenAsset;
  chain?: ChainName;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const pct = (n: number) => `${n.toFixed(2)}%`;

/** Current rates through the ≤ 15 s single-flight cache (the planner and the yields report read the same numbers). */
export async function currentRates(deps: Pick<AppDeps, 'chains' | 'caches'>): Promise<MarketRate[]> {
  const rates = await fetchFresh(deps.caches.rates, 'all' as const, deps.chains);
  if (!rates) throw new ServiceError('SERVICE_UNAVAILABLE', 'Lending rates could not be read');
  return rates;
}

/** Explains the pick by naming every market it was compared with. */
function reasoningFor(best: MarketRate, others: MarketRate[]): string {
  if (others.length === 0) return `${best.asset} is only offered on ${best.chain} (${best.protocol}) at ${pct(best.apy)}.`;
  const list = others.map((r) => `${r.chain}/${r.protocol} ${pct(r.apy)}`).join(', ');
  const margin = best.apy - Math.max(...others.map((r) => r.apy));
  return `${best.chain}/${best.protocol} pays the highest ${best.asset} supply APY at ${pct(best.apy)}, ${margin.toFixed(2)} points above the next best; compared with ${list}.`;
}

/**
 * The yield report of SPEC: every (chain, protocol, asset) rate, filtered by
 * asset/chain when given, and the best market for the asset (USDC by default).
 * Naming an upcoming main network follows the plan rule of assertChainsUsable.
 */
export async function getYields(deps: Pick<AppDeps, 'chains' | 'caches' | 'environment'>, principal: Principal, params: GetYieldsParams = {}): Promise<YieldReport> {
  if (params.chain) assertChainsUsable(principal, [{ field: 'chain', chain: params.chain }], deps.environment);
  const all = await currentRates(deps);
  const rates = all.filter((r) => (!params.asset || r.asset === params.asset) && (!params.chain || r.chain === params.chain));
  const bestAsset = params.asset ?? 'USDC';
  const candidates = rates.filter((r) => r.asset === bestAsset).sort((a, b) => b.apy - a.apy);
  const top = candidates[0];
  if (!top && rates.length === 0 && all.length === 0) throw new ServiceError('SERVICE_UNAVAILABLE', 'No lending markets are available');
  return {
    rates: rates.map((r) => ({ chain: r.chain, protocol: r.protocol, asset: r.asset, apy: round2(r.apy) })),
    best: top
      ? { chain: top.chain, protocol: top.protocol, asset: top.asset, apy: round2(top.apy), reasoning: reasoningFor(top, candidates.slice(1)) }
      : null,
  };
}
