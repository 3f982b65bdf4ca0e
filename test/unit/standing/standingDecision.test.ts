import { decide } from '../../../src/domain/standingDecision';
import { COSTS, decisionInput, idle, lent, market, r6, usdc } from './decisionFixtures';

const DEPOSIT_BASE = (55_500 + 226_100) * 1e-8;
const DEPOSIT_ARB = (55_500 + 226_100) * 2e-8;
/** approve + burn on arbitrum, mint on base. */
const BRIDGE_GAS_ARB_BASE = (55_500 + 85_200) * 2e-8 + 164_100 * 1e-8;
const WITHDRAW_ARB = 168_900 * 2e-8;
/** Extra yield over 30 days of `amount` USDC gaining `points` percentage points. */
const gain30 = (amount: number, points: number) => (amount * points * 30) / 100 / 365;

describe('decide: moves', () => {
  test('behavior: idle funds are lent into the best market on their chain; the numbers say gain, deposit cost, net and threshold', () => {
    const d = decide(
      decisionInput({ holdings: [idle('base-sepolia', 10_000)], markets: [market('base-sepolia', 'aave-v3', 5), market('base-sepolia', 'compound-v3', 4)] }),
    );
    expect(d.move).toBe(true);
    expect(d.numbers).toEqual({
      target: { chain: 'base-sepolia', protocol: 'aave-v3', apy: 5 },
      sources: [{ chain: 'base-sepolia', protocol: null, amount: '10000', apy: 0 }],
      amount: '10000',
      costs: { withdrawGasUsd: 0, bridgeFeeUsd: 0, bridgeGasUsd: 0, depositGasUsd: r6(DEPOSIT_BASE), totalUsd: r6(DEPOSIT_BASE) },
      gainUsd: r6(gain30(10_000, 5)),
      netGainUsd: r6(r6(gain30(10_000, 5)) - r6(DEPOSIT_BASE)),
      thresholdUsd: r6(0.1 * r6(gain30(10_000, 5))),
      horizonDays: 30,
    });
  });

  test('behavior: a position off the target chain is withdrawn, bridged (fast fee on the amount, approve + burn there, mint on the target) and deposited', () => {
    const d = decide(
      decisionInput({
        holdings: [lent('arbitrum-sepolia', 'aave-v3', 10_000)],
        markets: [market('base-sepolia', 'aave-v3', 5), market('arbitrum-sepolia', 'aave-v3', 1)],
      }),
    );
    expect(d.move).toBe(true);
    const fee = 1.3; // 1.3 bps of 10 000 USDC
    const costs = { withdrawGasUsd: r6(WITHDRAW_ARB), bridgeFeeUsd: fee, bridgeGasUsd: r6(BRIDGE_GAS_ARB_BASE), depositGasUsd: r6(DEPOSIT_BASE) };
    expect(d.numbers.costs).toEqual({ ...costs, totalUsd: r6(costs.withdrawGasUsd + fee + costs.bridgeGasUsd + costs.depositGasUsd) });
    expect(d.numbers.gainUsd).toBe(r6(gain30(10_000, 4)));
    expect(d.numbers.sources).toEqual([{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '10000', apy: 1 }]);
  });

  test('behavior: the target is the move that nets the most, not the highest APY: a slightly better market a bridge away loses to one on the same chain', () => {
    const d = decide(
      decisionInput({
        holdings: [idle('arbitrum-sepolia', 1_000)],
        markets: [market('base-sepolia', 'aave-v3', 5.1), market('arbitrum-sepolia', 'aave-v3', 5)],
      }),
    );
    // 0.1 point more over 30 days on 1 000 USDC is 0.08 USD; the bridge's fee alone is 0.13
    expect(d.move).toBe(true);
    expect(d.numbers.target).toEqual({ chain: 'arbitrum-sepolia', protocol: 'aave-v3', apy: 5 });
  });

  test('behavior: with an amount set, only that much is managed: positions count first, idle funds fill up, the rest stays', () => {
    const d = decide(
      decisionInput({
        rule: { horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2, amount: usdc(5_000) },
        holdings: [lent('arbitrum-sepolia', 'aave-v3', 3_000), idle('arbitrum-sepolia', 10_000)],
        markets: [market('arbitrum-sepolia', 'compound-v3', 8), market('arbitrum-sepolia', 'aave-v3', 2)],
      }),
    );
    expect(d.move).toBe(true);
    expect(d.numbers.sources).toEqual([
      { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '3000', apy: 2 },
      { chain: 'arbitrum-sepolia', protocol: null, amount: '2000', apy: 0 },
    ]);
    expect(d.numbers.amount).toBe('5000');
    // 5 000 already in the best market: nothing more is lent
    const done = decide(
      decisionInput({
        rule: { horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2, amount: usdc(5_000) },
        holdings: [lent('arbitrum-sepolia', 'compound-v3', 5_000), idle('arbitrum-sepolia', 8_000)],
        markets: [market('arbitrum-sepolia', 'compound-v3', 8), market('arbitrum-sepolia', 'aave-v3', 2)],
      }),
    );
    expect(done).toMatchObject({ move: false, reason: 'already_best' });
  });

  test('behavior: a source that costs more than it brings stays: of two positions only the one worth withdrawing moves', () => {
    const d = decide(
      decisionInput({
        holdings: [lent('ethereum-sepolia', 'compound-v3', 10), lent('base-sepolia', 'compound-v3', 50_000)],
        markets: [market('base-sepolia', 'aave-v3', 6), market('base-sepolia', 'compound-v3', 3), market('ethereum-sepolia', 'compound-v3', 3)],
      }),
    );
    expect(d.move).toBe(true);
    expect(d.numbers.sources.map((s) => s.chain)).toEqual(['base-sepolia']);
  });
});

describe('decide: skips', () => {
  const markets = [market('base-sepolia', 'aave-v3', 5), market('arbitrum-sepolia', 'aave-v3', 4)];

  test('behavior: no_funds — nothing held (or an amount of 0), with zero numbers and the minimum as threshold', () => {
    for (const input of [
      decisionInput({ holdings: [], markets }),
      decisionInput({ holdings: [idle('base-sepolia', 0)], markets }),
      decisionInput({ holdings: [idle('base-sepolia', 5)], markets, rule: { horizonDays: 30, minGainUsd: 3, maxMovesPerDay: 2, amount: 0n } }),
    ]) {
      const d = decide(input);
      expect(d).toMatchObject({ move: false, reason: 'no_funds', numbers: { amount: '0', sources: [], gainUsd: 0, netGainUsd: 0 } });
      expect(d.numbers.thresholdUsd).toBe(input.rule.minGainUsd);
    }
  });

  test('behavior: already_best — everything is in the market counting the most', () => {
    const d = decide(decisionInput({ holdings: [lent('base-sepolia', 'aave-v3', 10_000)], markets }));
    expect(d).toMatchObject({ move: false, reason: 'already_best', numbers: { target: { chain: 'base-sepolia', protocol: 'aave-v3', apy: 5 }, amount: '0' } });
  });

  test('behavior: below_threshold — the gain does not clear the minimum, or the costs eat more than 90 % of it; the numbers are the best move weighed', () => {
    const small = decide(decisionInput({ holdings: [lent('arbitrum-sepolia', 'aave-v3', 1_000)], markets }));
    expect(small).toMatchObject({ move: false, reason: 'below_threshold' });
    expect(small.numbers.netGainUsd).toBeLessThanOrEqual(small.numbers.thresholdUsd);
    expect(small.numbers.gainUsd).toBe(r6(gain30(1_000, 1)));
    // 10 % rule: a minimum of 0 still needs the net at 10 % of the gain
    const dear = decide(
      decisionInput({
        holdings: [lent('ethereum-sepolia', 'compound-v3', 10_000)],
        markets: [market('ethereum-sepolia', 'compound-v3', 4.99), market('ethereum-sepolia', 'aave-v3', 5)],
        rule: { horizonDays: 30, minGainUsd: 0, maxMovesPerDay: 2 },
      }),
    );
    expect(dear).toMatchObject({ move: false, reason: 'below_threshold' });
    expect(dear.numbers.netGainUsd).toBeLessThan(0.1 * dear.numbers.gainUsd);
  });

  test('behavior: unconfirmed_rate — a raised rate pays at this sample but not at the lower of the two; the numbers are the move at confirmed rates', () => {
    const raised = [market('base-sepolia', 'aave-v3', 9, 1), market('arbitrum-sepolia', 'aave-v3', 4)];
    const d = decide(decisionInput({ holdings: [lent('arbitrum-sepolia', 'aave-v3', 10_000)], markets: raised }));
    expect(d).toMatchObject({ move: false, reason: 'unconfirmed_rate', numbers: { target: { chain: 'base-sepolia', protocol: 'aave-v3', apy: 1 } } });
    expect(d.numbers.gainUsd).toBeLessThan(0);
    // and a market left counts at the higher of two samples: a held rate that dips for one sample moves nothing either
    const dipped = [market('base-sepolia', 'aave-v3', 5), market('arbitrum-sepolia', 'aave-v3', 1, 4.9)];
    expect(decide(decisionInput({ holdings: [lent('arbitrum-sepolia', 'aave-v3', 10_000)], markets: dipped }))).toMatchObject({ reason: 'unconfirmed_rate' });
  });

  test('behavior: move_limit — a move that clears is not made once maxMovesPerDay moves were made in the last 24 h; its numbers are recorded', () => {
    const input = decisionInput({ holdings: [idle('base-sepolia', 10_000)], markets, movesInLastDay: 2 });
    const d = decide(input);
    expect(d).toMatchObject({ move: false, reason: 'move_limit', numbers: { amount: '10000' } });
    expect(decide({ ...input, movesInLastDay: 1 }).move).toBe(true);
    // a decision that would not move anyway says why, not the limit
    expect(decide({ ...input, holdings: [lent('base-sepolia', 'aave-v3', 10_000)] })).toMatchObject({ reason: 'already_best' });
  });

  test('behavior: intent_in_flight — nothing moves while a rebalance runs (funds may be between chains)', () => {
    expect(decide(decisionInput({ holdings: [idle('base-sepolia', 10_000)], markets, intentInFlight: true }))).toMatchObject({
      move: false,
      reason: 'intent_in_flight',
      numbers: { amount: '10000' },
    });
  });

  test('behavior: policy — a refused best target gives way to the best allowed move that clears; when none clears, policy with the refusing rule', () => {
    const holdings = [idle('base-sepolia', 10_000)];
    const noBase = (m: { chain: string }) => (m.chain === 'base-sepolia' ? { ok: false as const, rule: 'chains' } : { ok: true as const });
    const other = decide(decisionInput({ holdings, markets, allowed: noBase }));
    expect(other).toMatchObject({ move: true, numbers: { target: { chain: 'arbitrum-sepolia', protocol: 'aave-v3' } } });
    const onlyBase = decide(decisionInput({ holdings, markets: [markets[0]!], allowed: noBase }));
    expect(onlyBase).toMatchObject({ move: false, reason: 'policy', rule: 'chains', numbers: { target: { chain: 'base-sepolia' }, amount: '10000' } });
    const seen: Array<[string, bigint]> = [];
    decide(decisionInput({ holdings, markets, allowed: (m, amount) => (seen.push([m.chain, amount]), { ok: true }) }));
    expect(seen).toEqual([['base-sepolia', usdc(10_000)]]);
  });

  test('behavior: a chain without a gas price, a route without a fee and a non-USDC asset off-chain are never moved through', () => {
    const holdings = [lent('arbitrum-sepolia', 'aave-v3', 100_000)];
    const far = [market('base-sepolia', 'aave-v3', 9), market('arbitrum-sepolia', 'aave-v3', 1)];
    const unpriced = { ...COSTS, gasUsdPerUnit: { 'base-sepolia': 1e-8 } };
    expect(decide(decisionInput({ holdings, markets: far, costs: unpriced }))).toMatchObject({ move: false, reason: 'below_threshold' });
    const noRoute = { ...COSTS, routeFeeBps: {} };
    expect(decide(decisionInput({ holdings, markets: far, costs: noRoute }))).toMatchObject({ move: false, reason: 'below_threshold' });
    expect(decide(decisionInput({ holdings, markets: far, asset: 'USDT' }))).toMatchObject({ move: false, reason: 'below_threshold' });
    expect(decide(decisionInput({ holdings, markets: far })).move).toBe(true);
  });

  test('behavior: a position in a market without a rate counts towards the amount but never moves', () => {
    const d = decide(
      decisionInput({
        rule: { horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2, amount: usdc(10_000) },
        holdings: [lent('ethereum-sepolia', 'aave-v3', 10_000), idle('base-sepolia', 10_000)],
        markets: [market('base-sepolia', 'aave-v3', 5)],
      }),
    );
    expect(d).toMatchObject({ move: false, reason: 'already_best' });
  });

  test('behavior: funds of one market listed twice are added up', () => {
    const d = decide(decisionInput({ holdings: [idle('arbitrum-sepolia', 5_000), idle('arbitrum-sepolia', 5_000)], markets: [markets[1]!] }));
    expect(d).toMatchObject({ move: true, numbers: { amount: '10000', sources: [{ amount: '10000' }] } });
    expect(d.numbers.costs.depositGasUsd).toBe(r6(DEPOSIT_ARB));
  });
});

describe('decide: dust', () => {
  test('behavior: interest left behind by a move (a source gaining under a cent over the horizon) is already_best, not below_threshold', () => {
    const markets = [market('base-sepolia', 'aave-v3', 5), market('arbitrum-sepolia', 'aave-v3', 1)];
    const dust = { chain: 'arbitrum-sepolia' as const, protocol: 'aave-v3' as const, amount: 79n }; // 0.000079 USDC
    const d = decide(decisionInput({ holdings: [lent('base-sepolia', 'aave-v3', 10_000), dust], markets }));
    expect(d).toMatchObject({ move: false, reason: 'already_best' });
    // ... while a source worth a cent or more over the horizon is still weighed (and here does not pay for its move)
    const small = decide(decisionInput({ holdings: [lent('base-sepolia', 'aave-v3', 10_000), lent('arbitrum-sepolia', 'aave-v3', 10)], markets }));
    expect(small).toMatchObject({ move: false, reason: 'below_threshold' });
  });
});
