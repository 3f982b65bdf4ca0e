import type { AccountModel, ChainName } from '../../domain/chains';
import { chainCallsGas } from '../operationGas';
import { fromUnits } from '../../domain/money';
import { consolidate } from './consolidate';
import type { NetReturnOptions, PlannerInput, RateQuote, StepGasUsd } from './types';

export type { NetReturnOptions, StepGasUsd } from './types';

/** The transactions a lend's steps send, priced by the ranking (deposit: approve + supply; bridge: approve + burn, then mint). */
export type RankedTxKind = 'approve' | 'supply' | 'burn' | 'mint';

/** What gas costs on one chain: per gas in wei, and ETH in USD. */
export interface ChainGasPrice {
  gasPriceWei: bigint;
  ethUsd: number;
}

/** One market as the net-return ranking sees it, for the wallet's funds and the amount asked. */
export interface MarketReturn {
  chain: ChainName;
  protocol: string;
  apy: number;
  /** What would be deposited there after route fees, smallest units. */
  deposited: bigint;
  /** Bridges needed to gather the funds there. */
  bridges: number;
  /** deposited × APY × horizonDays / 365, in USD. */
  earningsUsd: number;
  routeFeesUsd: number;
  gasUsd: number;
  /** earningsUsd − routeFeesUsd − gasUsd. */
  netReturnUsd: number;
}

const usd = (wei: bigint, price: ChainGasPrice): number => (Number(wei * price.gasPriceWei) / 1e18) * price.ethUsd;

/**
 * Gas in USD of every deposit and bridge step between `chains`, from each
 * chain's gas price and ETH/USD and the gas of each transaction kind, each
 * chain's calls priced as its account model runs them (chainCallsGas; absent:
 * plain): on a `7702` chain a deposit's approve + supply are one operation,
 * a bridge's approve + burn one on its source, and its mint rides in the
 * destination's operation with the deposit (whose overhead is counted once,
 * there). Pure: the caller reads the prices and the models.
 */
export function stepGasUsd(
  prices: Partial<Record<ChainName, ChainGasPrice>>,
  gas: Readonly<Record<RankedTxKind, bigint>>,
  models: Partial<Record<ChainName, AccountModel>> = {},
): StepGasUsd {
  const out: StepGasUsd = { deposit: {}, bridge: {} };
  const chains = Object.keys(prices) as ChainName[];
  const modelOf = (chain: ChainName): AccountModel => models[chain] ?? 'plain';
  for (const chain of chains) {
    const p = prices[chain]!;
    out.deposit[chain] = usd(chainCallsGas(modelOf(chain), [gas.approve, gas.supply]), p);
    for (const to of chains) {
      if (to === chain) continue;
      (out.bridge[chain] ??= {})[to] = usd(chainCallsGas(modelOf(chain), [gas.approve, gas.burn]), p) + usd(gas.mint, prices[to]!);
    }
  }
  return out;
}

const round = (n: number, digits = 6): number => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Every market of `ranked` (the APY ranking) the wallet's funds can reach,
 * with what lending `input.request.amount` there would net over the horizon:
 * earnings on what arrives, less route fees and the gas of every step. Best
 * first; equal nets keep the APY ranking's order. Markets the funds cannot
 * reach are left out.
 */
export function rankByNetReturn(input: PlannerInput, ranked: readonly RateQuote[], options: NetReturnOptions): MarketReturn[] {
  const { amount, asset } = input.request;
  const out: MarketReturn[] = [];
  for (const market of ranked) {
    const gathered = consolidate({
      target: market.chain,
      required: amount,
      asset,
      balances: input.balances,
      routeFees: input.routeFees,
      minBridgeAmount: input.minBridgeAmount ?? 1n,
    });
    if (!gathered.ok || gathered.arrives === 0n) continue;
    const fees = gathered.bridges.reduce((sum, b) => sum + b.fee, 0n);
    const gas = gathered.bridges.reduce((sum, b) => sum + (options.gasUsd.bridge[b.from]?.[market.chain] ?? 0), options.gasUsd.deposit[market.chain] ?? 0);
    const earnings = Number(fromUnits(gathered.arrives, asset)) * (market.apy / 100) * (options.horizonDays / 365) * options.assetUsd;
    const routeFeesUsd = Number(fromUnits(fees, asset)) * options.assetUsd;
    out.push({
      chain: market.chain,
      protocol: market.protocol,
      apy: market.apy,
      deposited: gathered.arrives,
      bridges: gathered.bridges.length,
      earningsUsd: round(earnings),
      routeFeesUsd: round(routeFeesUsd),
      gasUsd: round(gas),
      netReturnUsd: round(earnings - routeFeesUsd - gas),
    });
  }
  // stable: equal nets keep the APY order
  return out.sort((a, b) => b.netReturnUsd - a.netReturnUsd);
}

const money = (n: number): string => `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(4)}`;

/** "base-sepolia/aave-v3 nets $0.0123 (earns $0.1000, route fees $0.0500, gas $0.0377)". */
export function describeReturn(r: MarketReturn): string {
  return `${r.chain}/${r.protocol} nets ${money(r.netReturnUsd)} (earns ${money(r.earningsUsd)} at ${r.apy.toFixed(2)}%, route fees ${money(r.routeFeesUsd)}, gas ${money(r.gasUsd)}${r.bridges > 0 ? `, ${r.bridges} bridge${r.bridges === 1 ? '' : 's'}` : ''})`;
}

/** Why the net-return ranking chose its first market, naming the runner-up and the numbers. */
export function netReturnReasoning(returns: readonly MarketReturn[], horizonDays: number): string {
  const [best, second] = returns;
  if (best === undefined) return 'No market can be funded from the wallet.';
  const head = `Best net return over ${horizonDays} day${horizonDays === 1 ? '' : 's'}: ${describeReturn(best)}`;
  if (second === undefined) return `${head}; no other market can be funded.`;
  return `${head}; runner-up ${describeReturn(second)}, ${money(round(best.netReturnUsd - second.netReturnUsd))} less.`;
}
