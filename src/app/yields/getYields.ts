import type { AppDeps } from '../deps';
import type { Principal } from '../accounts/principal';
import { assertChainsUsable } from '../chainAccess';
import type { MarketRate } from '../../ports/chain';
import type { ChainName, TokenAsset } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { fetchFresh } from '../caches';
import { getWalletById } from '../wallets/getWallet';
import { effectivePolicy } from '../policies/walletPolicy';
import { planningEffects } from '../intents/previewIntent';
import { ASSET_DECIMALS } from '../../domain/chains';
import { invalidChain } from '../../domain/errors/chain';
import { invalidRequest, type FieldIssue } from '../../domain/errors/request';
import { decimalPlaces, fromUnits } from '../../domain/money';
import { DEFAULT_HORIZON_DAYS, type OptimizeGoal } from '../../domain/optimize';
import { netReturnReasoning, planningRequestOf, rankNetReturns, readPlanning } from '../../engine/planning';

export interface YieldRate {
  chain: ChainName;
  protocol: string;
  asset: TokenAsset;
  /** The token the market lends (a market is chain, protocol and token). */
  token: string;
  /** Percent, rounded to 2 decimals. */
  apy: number;
  /** A market only the sandbox has. */
  sandboxOnly: boolean;
}

/** One market as the net-return ranking sees it (GET /yields?optimize=netReturn). */
export interface NetReturnRate extends YieldRate {
  /** Bridges needed to gather the amount there from the wallet's funds. */
  bridges: number;
  /** What would be deposited after route fees, token units. */
  amount: string;
  /** amount × APY × horizonDays / 365, in USD. */
  earningsUsd: number;
  routeFeesUsd: number;
  /** Typical gas of every step (approve, supply; approve, burn, mint per bridge) at each chain's gas price and ETH/USD now. */
  gasUsd: number;
  /** earningsUsd − routeFeesUsd − gasUsd. */
  netReturnUsd: number;
}

export interface YieldReport {
  rates: YieldRate[];
  best: (YieldRate & { reasoning: string }) | null;
  /** With optimize=netReturn only: every market the wallet's funds reach, best net return first (`best` is the first). */
  netReturn?: { horizonDays: number; amount: string; walletId: string; ranking: NetReturnRate[] };
}

export interface GetYieldsParams {
  asset?: TokenAsset;
  chain?: ChainName;
  /** Opt-in cost-aware ranking: with walletId and amount (token units), over horizonDays (default 30). */
  optimize?: OptimizeGoal;
  walletId?: string;
  amount?: string;
  horizonDays?: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A market's rate as the API shows it. */
const yieldRate = (r: MarketRate): YieldRate => ({
  chain: r.chain,
  protocol: r.protocol,
  asset: r.asset,
  token: r.token,
  apy: round2(r.apy),
  sandboxOnly: r.sandboxOnly === true,
});
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
 * The yield report of the API: every (chain, protocol, asset) rate, filtered by
 * asset/chain when given, and the best market for the asset (USDC by default).
 * Naming an upcoming main network follows the plan rule of assertChainsUsable.
 */
export async function getYields(
  deps: Pick<AppDeps, 'chains' | 'caches' | 'environment' | 'store'>,
  principal: Principal,
  params: GetYieldsParams = {},
): Promise<YieldReport> {
  checkOptimizeParams(params);
  if (params.chain) assertChainsUsable(principal, [{ field: 'chain', chain: params.chain }], deps.environment);
  if (params.optimize !== undefined) return netReturnYields(deps, principal, params);
  const all = await currentRates(deps);
  const rates = all.filter((r) => (!params.asset || r.asset === params.asset) && (!params.chain || r.chain === params.chain));
  const bestAsset = params.asset ?? 'USDC';
  const candidates = rates.filter((r) => r.asset === bestAsset).sort((a, b) => b.apy - a.apy);
  const top = candidates[0];
  if (!top && rates.length === 0 && all.length === 0) throw new ServiceError('SERVICE_UNAVAILABLE', 'No lending markets are available');
  return {
    rates: rates.map(yieldRate),
    best: top ? { ...yieldRate(top), reasoning: reasoningFor(top, candidates.slice(1)) } : null,
  };
}

/** optimize needs walletId and amount; they (and horizonDays) mean nothing without it. */
function checkOptimizeParams(params: GetYieldsParams): void {
  const issues: FieldIssue[] = [];
  if (params.optimize !== undefined) {
    if (params.walletId === undefined) issues.push({ path: 'walletId', message: 'walletId is required with optimize' });
    if (params.amount === undefined) issues.push({ path: 'amount', message: 'amount is required with optimize' });
    const asset = params.asset ?? 'USDC';
    if (params.amount !== undefined && decimalPlaces(params.amount) > ASSET_DECIMALS[asset])
      issues.push({ path: 'amount', message: `amount has more than ${ASSET_DECIMALS[asset]} decimals, the precision of ${asset}` });
  } else {
    for (const field of ['walletId', 'amount', 'horizonDays'] as const)
      if (params[field] !== undefined) issues.push({ path: field, message: `${field} is only used with optimize=netReturn` });
  }
  if (issues.length > 0) throw invalidRequest(issues);
}

/**
 * The yields report ranked by net return: the wallet's funds (less what its
 * executing intents hold, on the chains and protocols its policy allows),
 * route fees and each chain's gas price read as the engine's planning reads
 * them, and the same ranking a lend intent with optimize: netReturn plans
 * with. `best` is the first of the ranking (null when the funds reach no
 * market), its reasoning naming the runner-up and the numbers.
 */
async function netReturnYields(
  deps: Pick<AppDeps, 'chains' | 'caches' | 'environment' | 'store'>,
  principal: Principal,
  params: GetYieldsParams,
): Promise<YieldReport> {
  const asset = params.asset ?? 'USDC';
  const horizonDays = params.horizonDays ?? DEFAULT_HORIZON_DAYS;
  const wallet = await getWalletById(deps, principal, params.walletId!);
  if (wallet.chainType === 'tron') throw invalidChain('tron', { walletId: wallet.id, chainType: 'tron', reason: 'no Tron network is supported yet' });
  const policy = await effectivePolicy(deps, wallet);
  // read and ranked as a lend of the amount with optimize: netReturn would be planned
  const request = planningRequestOf({
    walletId: wallet.id,
    action: 'lend',
    requestedAmount: params.amount!,
    asset,
    ...(params.chain !== undefined && { chain: params.chain }),
    optimize: 'netReturn',
    horizonDays,
    ...(policy && { policy }),
  });
  const read = await readPlanning(request, planningEffects(deps));
  if (!read.ok) throw read.error;
  const all = read.snapshot.market.rates;
  const rates = all.filter((r) => r.asset === asset && (!params.chain || r.chain === params.chain));
  const ranking = rankNetReturns(request, read.snapshot, horizonDays);
  const top = ranking[0];
  const marketOf = (r: { chain: ChainName; protocol: string }): MarketRate =>
    all.find((m) => m.chain === r.chain && m.protocol === r.protocol && m.asset === asset)!;
  return {
    rates: rates.map(yieldRate),
    best: top
      ? {
          ...yieldRate(marketOf(top)),
          reasoning: `${netReturnReasoning(ranking, horizonDays)} Ranked by net return for ${params.amount} ${asset} from wallet ${wallet.id}; the highest APY alone would be ${describeApyBest(rates)}.`,
        }
      : null,
    netReturn: {
      horizonDays,
      amount: params.amount!,
      walletId: wallet.id,
      ranking: ranking.map((r) => ({
        ...yieldRate(marketOf(r)),
        bridges: r.bridges,
        amount: fromUnits(r.deposited, asset),
        earningsUsd: r.earningsUsd,
        routeFeesUsd: r.routeFeesUsd,
        gasUsd: r.gasUsd,
        netReturnUsd: r.netReturnUsd,
      })),
    },
  };
}

/** "base-sepolia/aave-v3 at 4.29%" (the APY rule's pick), or "none" when no market matches. */
function describeApyBest(rates: readonly MarketRate[]): string {
  const top = [...rates].sort((a, b) => b.apy - a.apy)[0];
  return top ? `${top.chain}/${top.protocol} at ${pct(top.apy)}` : 'none';
}
