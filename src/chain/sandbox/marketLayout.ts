import type { ChainName, TokenAsset } from '../../domain/chains';
import { aaveV3 } from '../protocols/aave-v3';
import { compoundV3 } from '../protocols/compound-v3';

/** Which lending markets the sandbox lists: `all` (the real layout plus sandbox-only Aave USDC markets, the default) or `testnets` (exactly the real layout). */
export const SANDBOX_MARKET_MODES = ['all', 'testnets'] as const;
export type SandboxMarketMode = (typeof SANDBOX_MARKET_MODES)[number];

export interface MarketSlot {
  /** The name of the protocol's module (chain/protocols). */
  protocol: string;
  asset: TokenAsset;
  sandboxOnly: boolean;
}

type Layout = Readonly<Partial<Record<ChainName, readonly { protocol: string; asset: TokenAsset }[]>>>;

/** The chain layout of the sandbox's markets: the real test networks' own, and what the sandbox adds to them. */
export interface MarketLayout {
  testnets: Layout;
  sandboxOnly: Layout;
}

const AAVE = aaveV3.name;
const COMET = compoundV3.name;

/**
 * The markets of the real test networks, as `deploy/testnets.json` lists them
 * (a unit test keeps the two equal): Circle's USDC is lent by Aave only on
 * arbitrum-sepolia and by Compound III only on ethereum-sepolia; Aave's other
 * reserves there lend Aave's own faucet tokens.
 */
export const TESTNET_MARKETS: Layout = {
  'ethereum-sepolia': [
    { protocol: AAVE, asset: 'USDT' },
    { protocol: AAVE, asset: 'DAI' },
    { protocol: AAVE, asset: 'WETH' },
    { protocol: COMET, asset: 'USDC' },
  ],
  'arbitrum-sepolia': [
    { protocol: AAVE, asset: 'USDC' },
    { protocol: AAVE, asset: 'WETH' },
  ],
  'base-sepolia': [{ protocol: AAVE, asset: 'WETH' }],
};

/** What the sandbox adds by default, so that every strategy (a USDC market on every chain) can be tried offline. */
export const SANDBOX_ONLY_MARKETS: Layout = {
  'ethereum-sepolia': [{ protocol: AAVE, asset: 'USDC' }],
  'base-sepolia': [{ protocol: AAVE, asset: 'USDC' }],
};

export const DEFAULT_MARKET_LAYOUT: MarketLayout = { testnets: TESTNET_MARKETS, sandboxOnly: SANDBOX_ONLY_MARKETS };

/** The markets the sandbox deploys on `chain` in `mode`, real ones first. */
export function sandboxMarkets(chain: ChainName, mode: SandboxMarketMode, layout: MarketLayout = DEFAULT_MARKET_LAYOUT): MarketSlot[] {
  const real = (layout.testnets[chain] ?? []).map((m) => ({ ...m, sandboxOnly: false }));
  if (mode === 'testnets') return real;
  return [...real, ...(layout.sandboxOnly[chain] ?? []).map((m) => ({ ...m, sandboxOnly: true }))];
}
