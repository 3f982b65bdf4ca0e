import { plan } from '../../../src/engine/planner/plan';
import { rankByNetReturn, stepGasUsd, type NetReturnOptions } from '../../../src/engine/planner/netReturn';
import { rankRates } from '../../../src/engine/planner/rates';
import type { PlannerInput, RateQuote } from '../../../src/engine/planner/types';

/** The opt-in net-return ranking of lend markets: pure, on made-up markets. */

const rates: RateQuote[] = [
  { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 5.1 },
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 5.0 },
  { chain: 'arbitrum-sepolia', protocol: 'compound-v3', asset: 'USDC', apy: 1.0 },
];
// 1 gwei, ETH 3000 USD on both chains; gas of a deposit 150k, of a bridge 250k
const gasUsd = stepGasUsd(
  { 'base-sepolia': { gasPriceWei: 1_000_000_000n, ethUsd: 3000 }, 'arbitrum-sepolia': { gasPriceWei: 1_000_000_000n, ethUsd: 3000 } },
  { approve: 50_000n, supply: 100_000n, burn: 100_000n, mint: 100_000n },
);
const options = (horizonDays: number): NetReturnOptions => ({ horizonDays, assetUsd: 1, gasUsd });

function input(amount: bigint, horizonDays: number | null, held: bigint = amount): PlannerInput {
  return {
    request: { action: 'lend', amount, asset: 'USDC' },
    balances: { 'arbitrum-sepolia': held },
    positions: {},
    rates,
    routeFees: { 'arbitrum-sepolia': { 'base-sepolia': 5 } },
    ...(horizonDays !== null && { optimize: options(horizonDays) }),
  };
}

describe('net-return ranking', () => {
  test('unit: step gas in USD from gas prices (deposit = approve + supply; bridge = approve + burn on the source, mint on the destination)', () => {
    expect(gasUsd.deposit['base-sepolia']).toBeCloseTo(0.45, 10);
    expect(gasUsd.bridge['arbitrum-sepolia']?.['base-sepolia']).toBeCloseTo(0.75, 10);
  });

  test('unit: earnings over the horizon less route fees and gas, best first; a small amount stays, a large one moves', () => {
    const small = input(5_000_000n, 30);
    const ranked = rankByNetReturn(small, rankRates(rates, 'USDC', small.balances), options(30));
    expect(ranked.map((r) => `${r.chain}/${r.protocol}`)).toEqual(['arbitrum-sepolia/aave-v3', 'arbitrum-sepolia/compound-v3', 'base-sepolia/aave-v3']);
    const base = ranked[2]!;
    // 4.9975 USDC arrive; earn 4.9975 × 5.1 % × 30/365; fee 0.0025; gas 0.45 + 0.75
    expect(base).toMatchObject({ bridges: 1, deposited: 4_997_500n, routeFeesUsd: 0.0025, gasUsd: 1.2 });
    expect(base.earningsUsd).toBeCloseTo(4.9975 * 0.051 * (30 / 365), 6);
    expect(base.netReturnUsd).toBeCloseTo(base.earningsUsd - 0.0025 - 1.2, 6);

    const large = input(100_000_000_000n, 365);
    const [first, second] = rankByNetReturn(large, rankRates(rates, 'USDC', large.balances), options(365));
    expect(first).toMatchObject({ chain: 'base-sepolia', bridges: 1 });
    expect(second).toMatchObject({ chain: 'arbitrum-sepolia', protocol: 'aave-v3', bridges: 0 });
  });

  test('unit: markets the funds cannot reach are left out', () => {
    const short = { ...input(5_000_000n, 30, 1_000_000n), balances: { 'base-sepolia': 5_000_000n } };
    const ranked = rankByNetReturn(short, rankRates(rates, 'USDC', short.balances), options(30));
    // base-sepolia holds it all, arbitrum-sepolia cannot be reached without funds there (bridges go from where funds are)
    expect(ranked.map((r) => r.chain)).toContain('base-sepolia');
    const none = { ...input(5_000_000n, 30, 0n), balances: {} };
    expect(rankByNetReturn(none, rankRates(rates, 'USDC', none.balances), options(30))).toEqual([]);
  });
});

describe('planLend with optimize', () => {
  test('behavior: without optimize the highest APY wins (bridges); with it a small amount is deposited where it is', () => {
    const byApy = plan(input(5_000_000n, null));
    expect(byApy.ok && byApy.plan.strategy).toBe('single-bridge');
    const byNet = plan(input(5_000_000n, 30));
    expect(byNet.ok).toBe(true);
    if (!byNet.ok) return;
    expect(byNet.plan.strategy).toBe('no-bridge');
    expect(byNet.plan.steps).toEqual([expect.objectContaining({ type: 'deposit', chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '5' })]);
    expect(byNet.apy).toBe(5.0);
    expect(byNet.plan.reasoning).toMatch(
      /Chosen by net return \(optimize: netReturn\): arbitrum-sepolia\/aave-v3 .*Best net return over 30 days: arbitrum-sepolia\/aave-v3 nets .*runner-up arbitrum-sepolia\/compound-v3/,
    );
  });

  test('behavior: with optimize a large amount over a long horizon bridges for the better APY', () => {
    const r = plan(input(100_000_000_000n, 365));
    expect(r.ok && r.plan.strategy).toBe('single-bridge');
    expect(r.ok && r.plan.steps[1]).toMatchObject({ type: 'deposit', chain: 'base-sepolia' });
  });

  test('error: with optimize and no reachable market, the same INSUFFICIENT_FUNDS as without', () => {
    const poor = { ...input(5_000_000n, 30, 1_000_000n) };
    const withOpt = plan(poor);
    const without = plan({ ...poor, optimize: undefined });
    expect(withOpt.ok).toBe(false);
    expect(!withOpt.ok && !without.ok && withOpt.error.toJSON()).toEqual(!without.ok && without.error.toJSON());
  });
});
