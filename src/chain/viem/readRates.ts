import { sandboxCometAbi, sandboxPoolAbi } from '../sandbox/abis';
import type { MarketRate } from '../../ports/chain';
import type { ChainClient } from './chainClients';
import { aaveRayToApyPercent, cometRateToApyPercent } from '../apy';

/** Supply APYs of one chain's markets, read concurrently: an Aave reserve's `currentLiquidityRate`, a Comet's supply rate at its utilization. */
export async function readRates(c: ChainClient): Promise<MarketRate[]> {
  const { client, deployment: d } = c;
  return Promise.all(
    d.markets.map(async (m): Promise<MarketRate> => {
      let apy: number;
      if (m.protocol === 'aave-v3') {
        const reserve = await client.readContract({ address: d.aavePool!, abi: sandboxPoolAbi, functionName: 'getReserveData', args: [m.token] });
        apy = aaveRayToApyPercent(BigInt(reserve.currentLiquidityRate));
      } else {
        const utilization = await client.readContract({ address: m.comet, abi: sandboxCometAbi, functionName: 'getUtilization' });
        apy = cometRateToApyPercent(
          BigInt(await client.readContract({ address: m.comet, abi: sandboxCometAbi, functionName: 'getSupplyRate', args: [utilization] })),
        );
      }
      return { chain: c.name, protocol: m.protocol, asset: m.asset, token: m.token, apy, ...(m.sandboxOnly && { sandboxOnly: true }) };
    }),
  );
}
