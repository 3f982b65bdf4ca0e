import type { ManifestMarket } from '../../ports/deploymentManifest';
import type { ChainClient } from './chainClients';

/**
 * A market's supply index at `blockNumber` (absent: the latest block), in ray
 * (1e27 = 1), as its protocol's module reads it (Aave: the reserve's
 * normalized income; Comet: its base supply index brought up to the block).
 */
export function readSupplyIndex(c: ChainClient, market: ManifestMarket, blockNumber?: bigint): Promise<bigint> {
  return c.protocols.get(market.protocol).readSupplyIndex(c, market, blockNumber);
}
