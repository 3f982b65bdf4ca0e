import { parseAbi, type Address } from 'viem';
import type { ChainClient } from './chainClients';

const underlyingAbi = parseAbi(['function UNDERLYING_ASSET_ADDRESS() view returns (address)', 'function baseToken() view returns (address)']);

/**
 * What each market of the chain's manifest lends, read from the chain: an
 * aToken's UNDERLYING_ASSET_ADDRESS, a Comet's baseToken. A market whose
 * contract lends another token than the manifest says (an Aave faucet "USDC"
 * listed as Circle's) is a problem: the service would supply one token into a
 * market of another. Answers the problems found, one line each.
 */
export async function verifyMarketTokens(c: ChainClient): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(
    c.deployment.markets.map(async (m) => {
      const at: Address = m.protocol === 'aave-v3' ? m.aToken : m.comet;
      const lends = await c.client.readContract({
        address: at,
        abi: underlyingAbi,
        functionName: m.protocol === 'aave-v3' ? 'UNDERLYING_ASSET_ADDRESS' : 'baseToken',
      });
      if (lends.toLowerCase() !== m.token.toLowerCase()) problems.push(`${c.name} ${m.protocol} ${m.asset}: ${at} lends ${lends}, not ${m.token}`);
    }),
  );
  return problems;
}
