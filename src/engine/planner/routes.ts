import { CHAINS, type ChainName, type TokenAsset } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import type { RouteFees } from './types';

/** Only USDC moves between chains (CCTP burn and mint), and never between a main and a test network. */
export function canBridge(asset: TokenAsset, from: ChainName, to: ChainName): boolean {
  return asset === 'USDC' && from !== to && CHAINS[from].testnet === CHAINS[to].testnet;
}

/** Fee of the route in basis points (0 when the route has none); a malformed fee is a programming error. */
export function routeFeeBps(fees: RouteFees | undefined, from: ChainName, to: ChainName): number {
  const bps = fees?.[from]?.[to] ?? 0;
  if (!(bps >= 0 && bps <= 10_000)) {
    throw new ServiceError('INTERNAL_ERROR', `Route fee ${from} -> ${to} must be basis points in 0..10000`, {
      details: { from, to, bps },
    });
  }
  return bps;
}
