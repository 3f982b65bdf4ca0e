/** Rate conversions of the protocols (Aave ray APR, Comet per-second rate), in float percent at the edges (display values, not money). */
export const SECONDS_PER_YEAR = 31_536_000;
const RAY = 1e27;

/** Aave: `currentLiquidityRate` is a yearly APR in ray; APY = (1 + APR/N)^N − 1, computed as expm1(N·log1p(APR/N)). */
export function aaveRayToApyPercent(liquidityRateRay: bigint): number {
  const apr = Number(liquidityRateRay) / RAY;
  return Math.expm1(SECONDS_PER_YEAR * Math.log1p(apr / SECONDS_PER_YEAR)) * 100;
}

/** Comet: per-second supply rate scaled 1e18; APY = (1 + r)^N − 1. */
export function cometRateToApyPercent(ratePerSecond1e18: bigint): number {
  const r = Number(ratePerSecond1e18) / 1e18;
  return Math.expm1(SECONDS_PER_YEAR * Math.log1p(r)) * 100;
}

/** Inverse of aaveRayToApyPercent: the ray APR that yields `apyPercent` (sandbox rate control). */
export function apyPercentToAaveRay(apyPercent: number): bigint {
  const apr = SECONDS_PER_YEAR * Math.expm1(Math.log1p(apyPercent / 100) / SECONDS_PER_YEAR);
  return BigInt(Math.round(apr * 1e9)) * 10n ** 18n;
}

/** Inverse of cometRateToApyPercent: the per-second 1e18 rate that yields `apyPercent`. */
export function apyPercentToCometRate(apyPercent: number): bigint {
  return BigInt(Math.round(Math.expm1(Math.log1p(apyPercent / 100) / SECONDS_PER_YEAR) * 1e18));
}
