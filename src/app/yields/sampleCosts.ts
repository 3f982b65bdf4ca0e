import { TOKEN_ASSETS, type ChainName, type TokenAsset } from '../../domain/chains';
import type { SampleCosts } from '../../domain/standingIntent';
import type { ChainPort } from '../../ports/chain';

/**
 * What a move costs now, as the engine prices it: USD of one unit of gas per
 * chain (the chain's gas price at its own ETH/USD feed, as previews and the
 * net-return ranking count it), the CCTP fee of each route at fast speed (the
 * speed a bridge goes at unless asked otherwise), and each asset's USD price.
 * A chain whose gas quote fails is left out (a decision does not move
 * through a chain it cannot price); route fees and prices that fail are
 * left out the same way.
 */
export async function readSampleCosts(port: Pick<ChainPort, 'chains' | 'gasQuote' | 'routeFees' | 'priceUsd'>): Promise<SampleCosts> {
  const [quotes, routes, prices] = await Promise.all([
    Promise.allSettled(port.chains.map((c) => port.gasQuote(c))),
    port.routeFees().catch(() => ({})),
    Promise.allSettled(TOKEN_ASSETS.map(async (a) => [a, await priceOn(port, a)] as const)),
  ]);
  const costs: SampleCosts = { gasUsdPerUnit: {}, routeFeeBps: {}, assetUsd: {} };
  for (const q of quotes) {
    if (q.status === 'fulfilled') costs.gasUsdPerUnit[q.value.chain] = (Number(q.value.gasPriceWei) / 1e18) * q.value.ethUsd;
  }
  for (const [from, row] of Object.entries(routes) as Array<[ChainName, Record<string, { fast: number }> | undefined]>) {
    for (const [to, tiers] of Object.entries(row ?? {})) if (tiers) (costs.routeFeeBps[from] ??= {})[to as ChainName] = tiers.fast;
  }
  for (const p of prices) if (p.status === 'fulfilled' && p.value[1] !== undefined) costs.assetUsd![p.value[0]] = p.value[1];
  return costs;
}

/** The asset's USD price at the first chain the port serves (undefined when it serves none). */
async function priceOn(port: Pick<ChainPort, 'chains' | 'priceUsd'>, asset: TokenAsset): Promise<number | undefined> {
  const chain = port.chains[0];
  return chain === undefined ? undefined : port.priceUsd(asset, chain);
}
