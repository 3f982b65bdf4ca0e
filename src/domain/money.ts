import { formatUnits, parseUnits } from 'viem';
import { ASSET_DECIMALS, type Asset } from './chains';

/**
 * Money is bigint in smallest units inside the service; decimal strings only at
 * the API edge, converted with viem (never floating point).
 */
export function toUnits(amount: string, asset: Asset): bigint {
  return parseUnits(amount, ASSET_DECIMALS[asset]);
}

export function fromUnits(units: bigint, asset: Asset): string {
  return formatUnits(units, ASSET_DECIMALS[asset]);
}

/** Number of decimals in a plain decimal string (`"1.250"` → 3). */
export function decimalPlaces(amount: string): number {
  const dot = amount.indexOf('.');
  return dot < 0 ? 0 : amount.length - dot - 1;
}

/** A JS number as a plain decimal string without exponent (1e-7 → "0.0000001"). */
export function numberToDecimalString(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError('not a finite number');
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** USD value of `units` at `priceUsd`, as a float rounded to cents' hundredths (display only). */
export function usdValue(units: bigint, asset: Asset, priceUsd: number): number {
  const v = Number(formatUnits(units, ASSET_DECIMALS[asset])) * priceUsd;
  return Math.round(v * 1e4) / 1e4;
}
