import { aaveRayToApyPercent, apyPercentToAaveRay, apyPercentToCometRate, cometRateToApyPercent } from '../../../src/chain/apy';

describe("APY conversion (the protocols' formulas)", () => {
  it('behavior: Aave 5% APR in ray compounds per second to 5.1271096%', () => {
    // (1 + 0.05/31536000)^31536000 − 1 = e^0.05 − 1 to within 1e-9 = 0.0512710964
    expect(aaveRayToApyPercent(5n * 10n ** 25n)).toBeCloseTo(5.12710964, 6);
  });

  it('behavior: Aave 0 rate is 0% and 100% APR is ≈ e − 1', () => {
    expect(aaveRayToApyPercent(0n)).toBe(0);
    expect(aaveRayToApyPercent(10n ** 27n)).toBeCloseTo((Math.E - 1) * 100, 4);
  });

  it('behavior: Comet per-second rate 1e-9 (×1e18 = 1e9) gives (1+1e-9)^31536000 − 1 ≈ 3.2033%', () => {
    expect(cometRateToApyPercent(1_000_000_000n)).toBeCloseTo((Math.exp(31536000 * Math.log1p(1e-9)) - 1) * 100, 8);
    expect(cometRateToApyPercent(1_000_000_000n)).toBeCloseTo(3.2034, 3);
  });

  it('behavior: the inverse conversions round-trip', () => {
    for (const apy of [0.5, 4.2, 12.5, 40]) {
      expect(aaveRayToApyPercent(apyPercentToAaveRay(apy))).toBeCloseTo(apy, 6);
      expect(cometRateToApyPercent(apyPercentToCometRate(apy))).toBeCloseTo(apy, 4);
    }
  });
});
