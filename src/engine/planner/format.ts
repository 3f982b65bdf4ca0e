import { CHAIN_NAMES, type ChainName, type TokenAsset } from '../../domain/chains';
import { fromUnits } from '../../domain/money';
import type { ChainAmounts } from './types';

/** `units` of `asset` for people: "99.94 USDC". */
export function formatAmount(units: bigint, asset: TokenAsset): string {
  return `${fromUnits(units, asset)} ${asset}`;
}

/** An APY percent for people: "4.20%". */
export function formatApy(apy: number): string {
  return `${apy.toFixed(2)}%`;
}

/** Registry order of chains, for deterministic tie-breaks and listings. */
export function chainOrder(chain: ChainName): number {
  return CHAIN_NAMES.indexOf(chain);
}

/** Per-chain amounts as decimal strings, in registry order (error details). */
export function perChainDecimals(amounts: ChainAmounts, asset: TokenAsset): Record<string, string> {
  const out: Record<string, string> = {};
  for (const chain of CHAIN_NAMES) {
    const units = amounts[chain];
    if (units !== undefined) out[chain] = fromUnits(units, asset);
  }
  return out;
}
