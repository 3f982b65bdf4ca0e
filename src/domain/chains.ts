/** The chain registry of the API's "Chains" and "Assets". */
export const CHAIN_NAMES = ['ethereum', 'arbitrum', 'base', 'ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'] as const;
export type ChainName = (typeof CHAIN_NAMES)[number];

export const ASSETS = ['USDC', 'USDT', 'DAI', 'WETH', 'ETH'] as const;
export type Asset = (typeof ASSETS)[number];
/** Assets held as ERC-20 tokens (everything except native ETH). */
export type TokenAsset = Exclude<Asset, 'ETH'>;
export const TOKEN_ASSETS: readonly TokenAsset[] = ['USDC', 'USDT', 'DAI', 'WETH'];

export const ASSET_DECIMALS: Record<Asset, number> = { USDC: 6, USDT: 6, DAI: 18, WETH: 18, ETH: 18 };
export const STABLECOINS: readonly Asset[] = ['USDC', 'USDT', 'DAI'];

export type ChainStatus = 'active' | 'upcoming';

export interface ChainInfo {
  name: ChainName;
  chainId: number;
  status: ChainStatus;
  testnet: boolean;
  /** Circle CCTP domain (not the chain id). */
  cctpDomain: number;
  tokens: readonly TokenAsset[];
}

const FULL: readonly TokenAsset[] = ['USDC', 'USDT', 'DAI', 'WETH'];
const BASE_TOKENS: readonly TokenAsset[] = ['USDC', 'WETH'];

export const CHAINS: Record<ChainName, ChainInfo> = {
  ethereum: { name: 'ethereum', chainId: 1, status: 'upcoming', testnet: false, cctpDomain: 0, tokens: FULL },
  arbitrum: { name: 'arbitrum', chainId: 42161, status: 'upcoming', testnet: false, cctpDomain: 3, tokens: FULL },
  base: { name: 'base', chainId: 8453, status: 'upcoming', testnet: false, cctpDomain: 6, tokens: BASE_TOKENS },
  'ethereum-sepolia': { name: 'ethereum-sepolia', chainId: 11155111, status: 'active', testnet: true, cctpDomain: 0, tokens: FULL },
  'arbitrum-sepolia': { name: 'arbitrum-sepolia', chainId: 421614, status: 'active', testnet: true, cctpDomain: 3, tokens: FULL },
  'base-sepolia': { name: 'base-sepolia', chainId: 84532, status: 'active', testnet: true, cctpDomain: 6, tokens: BASE_TOKENS },
};

export const TEST_CHAINS: readonly ChainName[] = CHAIN_NAMES.filter((c) => CHAINS[c].testnet);
export const ACTIVE_CHAINS: readonly ChainName[] = CHAIN_NAMES.filter((c) => CHAINS[c].status === 'active');

export function isChainName(s: string): s is ChainName {
  return (CHAIN_NAMES as readonly string[]).includes(s);
}

/** Whether `asset` exists on `chain` (ETH is native everywhere). */
export function supportsAsset(chain: ChainName, asset: Asset): boolean {
  return asset === 'ETH' || CHAINS[chain].tokens.includes(asset);
}

export function chainByName(name: ChainName): ChainInfo {
  return CHAINS[name];
}

/** Lending protocols the service supplies to: their one list is domain/protocols.ts. */
export { LENDING_PROTOCOLS, type LendingProtocol } from './protocols';

/**
 * How a wallet's calls run on a chain: `7702` one ERC-4337 v0.8 user
 * operation per batch from the wallet's own address, delegated by EIP-7702 to
 * `Simple7702Account`, bundled by the service and paid by its paymaster;
 * `plain` signed transactions, with native gas topped up by the gas tank.
 */
export type AccountModel = '7702' | 'plain';
