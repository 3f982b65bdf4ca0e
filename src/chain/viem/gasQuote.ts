import { STABLECOINS, type Asset, type ChainName } from '../../domain/chains';
import type { GasQuote } from '../../ports/chain';
import type { ChainAccess } from './chainAccess';
import type { EthUsdPrices } from './ethUsdPrices';

/** ChainPort.gasQuote: eth_gasPrice and the chain's ETH/USD feed, read together. */
export async function gasQuote(ctx: { access: ChainAccess; prices: EthUsdPrices }, chain: ChainName): Promise<GasQuote> {
  const [gasPriceWei, usd] = await Promise.all([ctx.access.call(chain, (c) => c.client.getGasPrice()), ctx.prices.ethUsd(chain)]);
  return { chain, gasPriceWei, ethUsd: usd };
}

/** ChainPort.priceUsd: stablecoins at 1.0, ETH (and WETH) at the chain's own feed. */
export async function priceUsd(prices: EthUsdPrices, asset: Asset, chain: ChainName): Promise<number> {
  if (STABLECOINS.includes(asset)) return 1;
  return prices.ethUsd(chain);
}
