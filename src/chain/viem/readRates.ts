import type { MarketRate } from '../../ports/chain';
import type { ChainClient } from './chainClients';

/** Supply APYs of one chain's markets, read concurrently, each by its protocol's module. */
export async function readRates(c: ChainClient): Promise<MarketRate[]> {
  return Promise.all(
    c.deployment.markets.map(async (m): Promise<MarketRate> => {
      const apy = await c.protocols.get(m.protocol).readApy(c, m);
      return { chain: c.name, protocol: m.protocol, asset: m.asset, token: m.token, apy, ...(m.sandboxOnly && { sandboxOnly: true }) };
    }),
  );
}
