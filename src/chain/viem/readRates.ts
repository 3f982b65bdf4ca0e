import type { Address } from 'viem';
import { sandboxCometAbi, sandboxPoolAbi } from '../sandbox/abis';
import type { TokenAsset } from '../../domain/chains';
import type { MarketRate } from '../../ports/chain';
import type { ChainClient } from './chainClients';
import { aaveRayToApyPercent, cometRateToApyPercent } from '../apy';

/** Supply APYs of one chain's markets: Aave reserves (getReserveData, positional) and the Comet base asset. */
export async function readRates(c: ChainClient): Promise<MarketRate[]> {
  const { client, deployment: d } = c;
  const tokens = (Object.entries(d.aTokens) as [TokenAsset, Address][]).map(([asset]) => [asset, d.tokens[asset]] as const);
  const reserves = await Promise.all(
    tokens.map(([, token]) => client.readContract({ address: d.aavePool, abi: sandboxPoolAbi, functionName: 'getReserveData', args: [token as Address] })),
  );
  const rates: MarketRate[] = tokens.map(([asset], i) => ({
    chain: c.name,
    protocol: 'aave-v3',
    asset,
    apy: aaveRayToApyPercent(BigInt(reserves[i]!.currentLiquidityRate)),
  }));
  if (d.comet) {
    const utilization = await client.readContract({ address: d.comet, abi: sandboxCometAbi, functionName: 'getUtilization' });
    const rate = await client.readContract({ address: d.comet, abi: sandboxCometAbi, functionName: 'getSupplyRate', args: [utilization] });
    rates.push({ chain: c.name, protocol: 'compound-v3', asset: 'USDC', apy: cometRateToApyPercent(BigInt(rate)) });
  }
  return rates;
}
