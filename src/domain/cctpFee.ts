/**
 * CCTP v2 fee of a burn of `amount` units at `bps` basis points (Circle's fee
 * route answers fractions such as 1.3; kept to 1/100 bps), rounded up so a
 * `maxFee` computed with it always covers the service's fee.
 */
export function cctpFee(amount: bigint, bps: number): bigint {
  if (!(bps >= 0)) throw new RangeError(`cctpFee: bps must be a non-negative number, got ${bps}`);
  const centiBps = BigInt(Math.round(bps * 100));
  return (amount * centiBps + 999_999n) / 1_000_000n;
}
