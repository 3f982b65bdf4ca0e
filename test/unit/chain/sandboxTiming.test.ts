import { stuckAfterMsAt, TESTNET_ATTESTATION_DELAY_MS, TESTNET_BLOCK_TIME_MS, testnetPace } from '../../../src/chain/sandbox/timing';
import { TEST_CHAINS } from '../../../src/domain/chains';

describe("the test networks' pace (SANDBOX_TIMING=testnets)", () => {
  test('behavior: block times are Sepolia 12 s, Base Sepolia 2 s, Arbitrum Sepolia 0.25 s', () => {
    expect(TESTNET_BLOCK_TIME_MS['ethereum-sepolia']).toBe(12_000);
    expect(TESTNET_BLOCK_TIME_MS['base-sepolia']).toBe(2_000);
    expect(TESTNET_BLOCK_TIME_MS['arbitrum-sepolia']).toBe(250);
  });

  test("behavior: attestation delays per source chain are Circle's: fast 20 s from Sepolia, 8 s from Base and Arbitrum; standard 13 min (hard finality) from all three", () => {
    expect(TESTNET_ATTESTATION_DELAY_MS['ethereum-sepolia']).toEqual({ fast: 20_000, standard: 780_000 });
    expect(TESTNET_ATTESTATION_DELAY_MS['base-sepolia']).toEqual({ fast: 8_000, standard: 780_000 });
    expect(TESTNET_ATTESTATION_DELAY_MS['arbitrum-sepolia']).toEqual({ fast: 8_000, standard: 780_000 });
    for (const ch of TEST_CHAINS) expect(TESTNET_ATTESTATION_DELAY_MS[ch].fast).toBeLessThan(TESTNET_ATTESTATION_DELAY_MS[ch].standard);
  });

  test('behavior: ×1 is the real pace; ×10 divides every block time and delay by 10, in whole milliseconds of at least 1', () => {
    const real = testnetPace(TEST_CHAINS);
    expect(real.blockTimeMs).toEqual({ 'ethereum-sepolia': 12_000, 'base-sepolia': 2_000, 'arbitrum-sepolia': 250 });
    expect(real.attestationDelayMs['ethereum-sepolia']).toEqual({ fast: 20_000, standard: 780_000 });

    const ten = testnetPace(TEST_CHAINS, 10);
    expect(ten.blockTimeMs).toEqual({ 'ethereum-sepolia': 1_200, 'base-sepolia': 200, 'arbitrum-sepolia': 25 });
    expect(ten.attestationDelayMs).toEqual({
      'ethereum-sepolia': { fast: 2_000, standard: 78_000 },
      'base-sepolia': { fast: 800, standard: 78_000 },
      'arbitrum-sepolia': { fast: 800, standard: 78_000 },
    });
    expect(testnetPace(['arbitrum-sepolia'], 40).blockTimeMs).toEqual({ 'arbitrum-sepolia': 6 });
    expect(testnetPace(['arbitrum-sepolia'], 1_000).blockTimeMs).toEqual({ 'arbitrum-sepolia': 1 });
  });

  test('behavior: only the chains asked for get a pace', () => {
    const pace = testnetPace(['base-sepolia'], 2);
    expect(Object.keys(pace.blockTimeMs)).toEqual(['base-sepolia']);
    expect(Object.keys(pace.attestationDelayMs)).toEqual(['base-sepolia']);
  });

  test('error: a speed below 1 or not a number is refused', () => {
    expect(() => testnetPace(TEST_CHAINS, 0.5)).toThrow(/speed must be a number ≥ 1/);
    expect(() => testnetPace(TEST_CHAINS, Number.NaN)).toThrow(/speed must be a number ≥ 1/);
  });

  test("behavior: a transaction counts as stuck after 2.5 blocks of the slowest chain, never sooner than the floor: a healthy one waiting for Sepolia's next block is not replaced", () => {
    expect(stuckAfterMsAt(testnetPace(TEST_CHAINS), 5_000)).toBe(30_000);
    expect(stuckAfterMsAt(testnetPace(TEST_CHAINS, 10), 5_000)).toBe(5_000);
    expect(stuckAfterMsAt(testnetPace(TEST_CHAINS, 2), 5_000)).toBe(15_000);
  });
});
