import type { ChainClient } from './chainClients';

/**
 * What each market of the chain's manifest lends, read from the chain by its
 * protocol's module (an aToken's UNDERLYING_ASSET_ADDRESS, a Comet's
 * baseToken). A market whose contract lends another token than the manifest
 * says (an Aave faucet "USDC" listed as Circle's) is a problem: the service
 * would supply one token into a market of another. Answers the problems
 * found, one line each.
 */
export async function verifyMarketTokens(c: ChainClient): Promise<string[]> {
  const problems: string[] = [];
  await Promise.all(
    c.deployment.markets.map(async (m) => {
      const protocol = c.protocols.get(m.protocol);
      const lends = await protocol.readLentToken(c, m);
      if (lends.toLowerCase() !== m.token.toLowerCase())
        problems.push(`${c.name} ${m.protocol} ${m.asset}: ${protocol.position(m)} lends ${lends}, not ${m.token}`);
    }),
  );
  return problems;
}
