import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';

/** Which lending markets the sandbox lists: `all` (the real layout plus sandbox-only Aave USDC markets, the default) or `testnets` (exactly the real layout). */
export const SANDBOX_MARKET_MODES = ['all', 'testnets'] as const;
export type SandboxMarketMode = (typeof SANDBOX_MARKET_MODES)[number];

export interface MarketSlot {
  protocol: LendingProtocol;
  asset: TokenAsset;
  sandboxOnly: boolean;
}

type Layout = Readonly<Partial<Record<ChainName, readonly { protocol: LendingProtocol; asset: TokenAsset }[]>>>;

/**
 * The markets of the real test networks, as `deploy/testnets.json` lists them
 * (a unit test keeps the two equal): Circle's USDC is lent by Aave only on
 * arbitrum-sepolia and by Compound III only on ethereum-sepolia; Aave's other
 * reserves there lend Aave's own faucet tokens.
 */
export const TESTNET_MARKETS: Layout = {
  'ethereum-sepolia': [
    { protocol: 'aave-v3', asset: 'USDT' },
    { protocol: 'aave-v3', asset: 'DAI' },
    { protocol: 'aave-v3', asset: 'WETH' },
    { protocol: 'compound-v3', asset: 'USDC' },
  ],
  'arbitrum-sepolia': [
    { protocol: 'aave-v3', asset: 'USDC' },
    { protocol: 'aave-v3', asset: 'WETH' },
  ],
  'base-sepolia': [{ protocol: 'aave-v3', asset: 'WETH' }],
};

/** What the sandbox adds by default, so that every strategy (a USDC market on every chain) can be tried offline. */
export const SANDBOX_ONLY_MARKETS: Layout = {
  'ethereum-sepolia': [{ protocol: 'aave-v3', asset: 'USDC' }],
  'base-sepolia': [{ protocol: 'aave-v3', asset: 'USDC' }],
};

/** The markets the sandbox deploys on `chain` in `mode`, real ones first. */
export function sandboxMarkets(chain: ChainName, mode: SandboxMarketMode): MarketSlot[] {
  const real = (TESTNET_MARKETS[chain] ?? []).map((m) => ({ ...m, sandboxOnly: false }));
  if (mode === 'testnets') return real;
  return [...real, ...(SANDBOX_ONLY_MARKETS[chain] ?? []).map((m) => ({ ...m, sandboxOnly: true }))];
}
