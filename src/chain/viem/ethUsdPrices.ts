import { LRUCache } from 'lru-cache';
import type { ChainName } from '../../domain/chains';
import { sandboxPriceFeedAbi } from '../sandbox/abis';
import type { ChainAccess } from './chainAccess';

/** ETH/USD at each chain's own feed. */
export interface EthUsdPrices {
  ethUsd(chain: ChainName): Promise<number>;
  clear(): void;
}

/** ETH/USD per chain for 10 s; concurrent misses share one feed read (lru-cache fetch), so an expiry under load costs one read. */
export function createEthUsdPrices(access: ChainAccess): EthUsdPrices {
  const prices = new LRUCache<ChainName, number>({
    max: 16,
    ttl: 10_000,
    fetchMethod: (chain) =>
      access.call(chain, async (c) => {
        const [, answer] = await c.client.readContract({ address: c.deployment.ethUsdFeed, abi: sandboxPriceFeedAbi, functionName: 'latestRoundData' });
        return Number(answer) / 1e8;
      }),
  });
  return {
    async ethUsd(chain) {
      const price = await prices.fetch(chain);
      if (price === undefined) throw new Error(`no ETH/USD price for ${chain}`);
      return price;
    },
    clear: () => prices.clear(),
  };
}
