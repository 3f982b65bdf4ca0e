import { sandboxCometAbi, sandboxPoolAbi } from '../sandbox/abis';
import type { ManifestMarket } from '../../ports/deploymentManifest';
import { SUPPLY_INDEX_ONE } from '../../ports/chain';
import type { ChainClient } from './chainClients';

/** Comet's indices are scaled 1e18 in the sandbox market; the port speaks ray (1e27). */
const COMET_TO_RAY = SUPPLY_INDEX_ONE / 10n ** 18n;

/**
 * A market's supply index at `blockNumber` (absent: the latest block), in ray
 * (1e27 = 1): Aave's reserve normalized income (a position is its scaled
 * balance × this), Comet's base supply index brought up to the block's time
 * the way its own accrual does (index + index × rate × Δt / 1e18).
 */
export async function readSupplyIndex(c: ChainClient, market: ManifestMarket, blockNumber?: bigint): Promise<bigint> {
  const { client, deployment: d } = c;
  const at = blockNumber === undefined ? {} : { blockNumber };
  if (market.protocol === 'aave-v3') {
    return client.readContract({ address: d.aavePool!, abi: sandboxPoolAbi, functionName: 'getReserveNormalizedIncome', args: [market.token], ...at });
  }
  const read = <F extends 'baseSupplyIndex' | 'lastAccrualTime'>(functionName: F) =>
    client.readContract({ address: market.comet, abi: sandboxCometAbi, functionName, ...at });
  const [index, lastAccrual, rate, block] = await Promise.all([
    read('baseSupplyIndex'),
    read('lastAccrualTime'),
    client.readContract({ address: market.comet, abi: sandboxCometAbi, functionName: 'getSupplyRate', args: [0n], ...at }),
    client.getBlock(blockNumber === undefined ? {} : { blockNumber }),
  ]);
  const base = BigInt(index);
  const elapsed = block.timestamp - BigInt(lastAccrual);
  return (base + (base * BigInt(rate) * (elapsed > 0n ? elapsed : 0n)) / 10n ** 18n) * COMET_TO_RAY;
}
