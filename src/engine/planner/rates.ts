import { supportsAsset, type ChainName, type TokenAsset } from '../../domain/chains';
import { chainOrder, formatApy } from './format';
import type { ChainAmounts, RateQuote } from './types';

/**
 * Markets a lend may target, best first: higher APY, then more of the asset
 * already on the chain (fewer bridges), then registry order, then protocol name.
 */
export function rankRates(rates: readonly RateQuote[], asset: TokenAsset, balances: ChainAmounts, chain?: ChainName): RateQuote[] {
  const held = (c: ChainName): bigint => balances[c] ?? 0n;
  return rates
    .filter((r) => r.asset === asset && supportsAsset(r.chain, asset) && Number.isFinite(r.apy) && (chain === undefined || r.chain === chain))
    .sort((a, b) => {
      if (a.apy !== b.apy) return b.apy - a.apy;
      const ha = held(a.chain);
      const hb = held(b.chain);
      if (ha !== hb) return ha > hb ? -1 : 1;
      return chainOrder(a.chain) - chainOrder(b.chain) || a.protocol.localeCompare(b.protocol);
    });
}

/** The ranked rates as a comparison for the plan's reasoning: "base-sepolia/aave 4.20% > arbitrum-sepolia/aave 3.10%". */
export function compareRates(ranked: readonly RateQuote[], label: (r: RateQuote) => string): string {
  return ranked
    .map((r, i) => {
      const prev = ranked[i - 1];
      const sep = prev === undefined ? '' : prev.apy === r.apy ? ' = ' : ' > ';
      return `${sep}${label(r)} ${formatApy(r.apy)}`;
    })
    .join('');
}

/** Whether the best two markets tie on APY (the reasoning then says how the tie was broken). */
export function isTie(ranked: readonly RateQuote[]): boolean {
  const [first, second] = ranked;
  return first !== undefined && second !== undefined && first.apy === second.apy;
}
