import { parseUnits } from 'viem';
import { ASSET_DECIMALS, type ChainName, type TokenAsset } from '../../domain/chains';

/**
 * Initial market state the sandbox deploys (first deployment only; later runs keep what is on chain).
 * Rates are APRs as decimal strings so they convert exactly.
 */

/** ERC-20 name and symbol per sandbox token (decimals come from ASSET_DECIMALS). */
export const SANDBOX_TOKEN_METADATA: Readonly<Record<TokenAsset, { name: string; symbol: string }>> = {
  USDC: { name: 'USD Coin', symbol: 'USDC' },
  USDT: { name: 'Tether USD', symbol: 'USDT' },
  DAI: { name: 'Dai Stablecoin', symbol: 'DAI' },
  WETH: { name: 'Wrapped Ether', symbol: 'WETH' },
};

/** Aave reserve supply APR per chain and asset (where the layout lists the reserve); base-sepolia USDC is the best USDC market. */
export const SANDBOX_POOL_APR: Readonly<Partial<Record<ChainName, Partial<Record<TokenAsset, string>>>>> = {
  'ethereum-sepolia': { USDC: '0.025', USDT: '0.022', DAI: '0.034', WETH: '0.016' },
  'arbitrum-sepolia': { USDC: '0.031', USDT: '0.029', DAI: '0.027', WETH: '0.019' },
  'base-sepolia': { USDC: '0.042', WETH: '0.021' },
};

/** Pool APR for chains or assets missing above. */
export const SANDBOX_DEFAULT_POOL_APR = '0.02';

/** Comet supply APR on the chains whose layout (marketLayout.ts) has a Comet. */
export const SANDBOX_COMET_APR: Readonly<Partial<Record<ChainName, string>>> = {
  'ethereum-sepolia': '0.028',
};

/** Whole tokens of liquidity the pool and the Comet hold so they can pay interest. */
export const SANDBOX_LIQUIDITY: Readonly<Record<TokenAsset, string>> = {
  USDC: '10000000',
  USDT: '10000000',
  DAI: '10000000',
  WETH: '10000',
};

/** ETH/USD feed answer, 8 decimals (3000.00000000). */
export const SANDBOX_ETH_USD_ANSWER = 3000_00000000n;

export const RAY = 10n ** 27n;
export const SECONDS_PER_YEAR = 31_536_000n;

/** Pool APR of `asset` on `chain` as a decimal string. */
export function sandboxPoolApr(chain: ChainName, asset: TokenAsset): string {
  return SANDBOX_POOL_APR[chain]?.[asset] ?? SANDBOX_DEFAULT_POOL_APR;
}

/** APR decimal string ("0.042") → Aave yearly liquidity rate in ray. */
export function aprToRay(apr: string): bigint {
  return parseUnits(apr, 27);
}

/** APR decimal string → Comet per-second supply rate scaled 1e18 (rounded down). */
export function aprToCometRatePerSecond(apr: string): bigint {
  return parseUnits(apr, 18) / SECONDS_PER_YEAR;
}

/** Liquidity seed of `asset` in atomic units. */
export function sandboxLiquidity(asset: TokenAsset): bigint {
  return parseUnits(SANDBOX_LIQUIDITY[asset], ASSET_DECIMALS[asset]);
}
