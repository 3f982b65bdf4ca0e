import { fromUnits } from '../../../src/domain/money';
import { plan } from '../../../src/engine/planner/plan';
import { cctpFee } from '../../../src/domain/cctpFee';
import { RATES, dai, expectFailure, expectPlan, input, usdc } from './plannerFixture';

const TEN_BPS = { 'arbitrum-sepolia': { 'base-sepolia': 10 }, 'ethereum-sepolia': { 'base-sepolia': 5 } } as const;

describe('planner: lend', () => {
  test('behavior: funds already on the best-APY chain → no-bridge, one deposit into the best protocol', () => {
    const r = expectPlan(plan(input({ amount: usdc('100') }, { balances: { 'base-sepolia': usdc('250'), 'arbitrum-sepolia': usdc('1000') } })));
    expect(r.plan.strategy).toBe('no-bridge');
    expect(r.plan.steps).toEqual([{ index: 0, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave', asset: 'USDC', amount: '100' }]);
    expect(r.amount).toBe(usdc('100'));
    expect(r.apy).toBe(4.2);
    expect(r.plan.reasoning).toContain(
      'USDC APY: base-sepolia/aave 4.20% > base-sepolia/compound 3.90% > arbitrum-sepolia/aave 3.10% > ethereum-sepolia/aave 2.50%',
    );
    expect(r.plan.reasoning).toContain('no bridge needed');
  });

  test('behavior: exact balance on the best chain is enough', () => {
    const r = expectPlan(plan(input({ amount: usdc('100') }, { balances: { 'base-sepolia': usdc('100') } })));
    expect(r.plan.strategy).toBe('no-bridge');
    expect(r.amount).toBe(usdc('100'));
  });

  test('behavior: client-named chain with funds there → direct-deposit into the best protocol of that chain', () => {
    const r = expectPlan(plan(input({ amount: usdc('5'), chain: 'arbitrum-sepolia' }, { balances: { 'arbitrum-sepolia': usdc('5') } })));
    expect(r.plan.strategy).toBe('direct-deposit');
    expect(r.plan.steps).toEqual([{ index: 0, type: 'deposit', status: 'pending', chain: 'arbitrum-sepolia', protocol: 'aave', asset: 'USDC', amount: '5' }]);
    expect(r.apy).toBe(3.1);
    expect(r.plan.reasoning).toContain('chosen by the client');
  });

  test('behavior: client-named chain compares its protocols and picks the best one', () => {
    const r = expectPlan(plan(input({ amount: usdc('1'), chain: 'base-sepolia' }, { balances: { 'base-sepolia': usdc('1') } })));
    expect(r.plan.steps[0]).toMatchObject({ protocol: 'aave' });
    expect(r.plan.reasoning).toContain('USDC APY on base-sepolia: aave 4.20% > compound 3.90%');
  });

  test('behavior: client-named chain without funds there is consolidated to that chain, not to the best one', () => {
    const r = expectPlan(plan(input({ amount: usdc('10'), chain: 'ethereum-sepolia' }, { balances: { 'base-sepolia': usdc('50') } })));
    expect(r.plan.strategy).toBe('single-bridge');
    expect(r.plan.steps.map((s) => [s.type, s.chain])).toEqual([
      ['bridge', 'base-sepolia'],
      ['deposit', 'ethereum-sepolia'],
    ]);
  });

  test('behavior: funds on one other chain → single-bridge then deposit of what arrives after the route fee', () => {
    const r = expectPlan(plan(input({ amount: usdc('100') }, { balances: { 'arbitrum-sepolia': usdc('150') }, routeFees: TEN_BPS })));
    expect(r.plan.strategy).toBe('single-bridge');
    expect(r.plan.steps).toEqual([
      {
        index: 0,
        type: 'bridge',
        status: 'pending',
        chain: 'arbitrum-sepolia',
        from: 'arbitrum-sepolia',
        to: 'base-sepolia',
        amount: '100',
        fee: '0.1',
        maxFee: '0.1',
      },
      { index: 1, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave', asset: 'USDC', amount: '99.9' },
    ]);
    expect(r.amount).toBe(usdc('99.9'));
    expect(r.amount < usdc('100')).toBe(true);
    expect(r.plan.reasoning).toContain('1 bridge needed via CCTP: 100 USDC from arbitrum-sepolia (fee 0.1 USDC, 10 bps)');
    expect(r.plan.reasoning).toContain('Depositing 99.9 USDC of the 100 USDC requested after route fees');
  });

  test('behavior: part on the target chain, the rest bridged; the wallet spends exactly the requested amount', () => {
    const r = expectPlan(
      plan(input({ amount: usdc('100') }, { balances: { 'base-sepolia': usdc('40'), 'arbitrum-sepolia': usdc('100') }, routeFees: TEN_BPS })),
    );
    expect(r.plan.strategy).toBe('single-bridge');
    expect(r.plan.steps[0]).toMatchObject({ type: 'bridge', amount: '60', fee: '0.06' });
    expect(r.plan.steps[1]).toMatchObject({ type: 'deposit', amount: '99.94' });
    expect(r.amount).toBe(usdc('99.94'));
  });

  test('behavior: without route fees the deposit equals the requested amount', () => {
    const r = expectPlan(plan(input({ amount: usdc('100') }, { balances: { 'arbitrum-sepolia': usdc('100') } })));
    expect(r.plan.steps[0]).toMatchObject({ type: 'bridge', fee: '0' });
    expect(r.amount).toBe(usdc('100'));
    expect(r.plan.reasoning).toContain('Depositing 100 USDC.');
  });

  test('behavior: funds spread over several chains → multi-bridge, largest balances first, then one deposit', () => {
    const r = expectPlan(
      plan(
        input(
          { amount: usdc('90') },
          {
            balances: { 'base-sepolia': usdc('10'), 'arbitrum-sepolia': usdc('50'), 'ethereum-sepolia': usdc('45') },
            routeFees: TEN_BPS,
          },
        ),
      ),
    );
    expect(r.plan.strategy).toBe('multi-bridge');
    expect(r.plan.steps).toEqual([
      {
        index: 0,
        type: 'bridge',
        status: 'pending',
        chain: 'arbitrum-sepolia',
        from: 'arbitrum-sepolia',
        to: 'base-sepolia',
        amount: '50',
        fee: '0.05',
        maxFee: '0.05',
      },
      {
        index: 1,
        type: 'bridge',
        status: 'pending',
        chain: 'ethereum-sepolia',
        from: 'ethereum-sepolia',
        to: 'base-sepolia',
        amount: '30',
        fee: '0.015',
        maxFee: '0.015',
      },
      { index: 2, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave', asset: 'USDC', amount: '89.935' },
    ]);
    expect(r.amount).toBe(usdc('89.935'));
    expect(r.plan.reasoning).toContain('2 bridges needed');
  });

  test('behavior: fewest bridges: one large balance is used rather than two smaller ones', () => {
    const r = expectPlan(plan(input({ amount: usdc('70') }, { balances: { 'arbitrum-sepolia': usdc('30'), 'ethereum-sepolia': usdc('80') } })));
    expect(r.plan.strategy).toBe('single-bridge');
    expect(r.plan.steps[0]).toMatchObject({ from: 'ethereum-sepolia', amount: '70' });
  });

  test('behavior: all funds across chains exactly cover the amount', () => {
    const r = expectPlan(
      plan(input({ amount: usdc('100') }, { balances: { 'base-sepolia': usdc('20'), 'arbitrum-sepolia': usdc('50'), 'ethereum-sepolia': usdc('30') } })),
    );
    expect(r.plan.strategy).toBe('multi-bridge');
    expect(r.amount).toBe(usdc('100'));
  });

  test('error: not enough across all chains → INSUFFICIENT_FUNDS with required, available and per-chain amounts', () => {
    const e = expectFailure(
      plan(input({ amount: usdc('100') }, { balances: { 'base-sepolia': usdc('20'), 'arbitrum-sepolia': usdc('50'), 'ethereum-sepolia': usdc('29.999999') } })),
    );
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toEqual({
      required: '100',
      available: '99.999999',
      perChain: { 'ethereum-sepolia': '29.999999', 'arbitrum-sepolia': '50', 'base-sepolia': '20' },
      asset: 'USDC',
      strategy: 'insufficient',
      chain: 'base-sepolia',
      protocol: 'aave',
    });
  });

  test('error: an empty wallet is insufficient with available 0', () => {
    const e = expectFailure(plan(input({ amount: usdc('1') })));
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ required: '1', available: '0', perChain: {} });
  });

  test('behavior: dust below the minimum bridge amount stays put', () => {
    const r = expectPlan(
      plan(input({ amount: usdc('10') }, { balances: { 'arbitrum-sepolia': usdc('0.5'), 'ethereum-sepolia': usdc('20') }, minBridgeAmount: usdc('1') })),
    );
    expect(r.plan.steps.filter((s) => s.type === 'bridge').map((s) => s.chain)).toEqual(['ethereum-sepolia']);
  });

  test('error: dust does not count as available', () => {
    const e = expectFailure(
      plan(input({ amount: usdc('10') }, { balances: { 'base-sepolia': usdc('9.9'), 'arbitrum-sepolia': usdc('0.5') }, minBridgeAmount: usdc('1') })),
    );
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ available: '9.9', perChain: { 'arbitrum-sepolia': '0.5', 'base-sepolia': '9.9' } });
  });

  test('behavior: a last bridge under the minimum is raised to it, drawing less from funds already on the target', () => {
    const r = expectPlan(
      plan(input({ amount: usdc('100') }, { balances: { 'base-sepolia': usdc('99.5'), 'arbitrum-sepolia': usdc('10') }, minBridgeAmount: usdc('1') })),
    );
    expect(r.plan.steps[0]).toMatchObject({ type: 'bridge', amount: '1' });
    expect(r.plan.steps[1]).toMatchObject({ type: 'deposit', amount: '100' });
    expect(r.plan.reasoning).toContain('Using 99 USDC already on base-sepolia');
  });

  test('behavior: a last bridge under the minimum can also be raised by trimming an earlier bridge', () => {
    const r = expectPlan(
      plan(input({ amount: usdc('50.5') }, { balances: { 'arbitrum-sepolia': usdc('50'), 'ethereum-sepolia': usdc('5') }, minBridgeAmount: usdc('1') })),
    );
    expect(r.plan.steps.map((s) => [s.type, s.amount])).toEqual([
      ['bridge', '49.5'],
      ['bridge', '1'],
      ['deposit', '50.5'],
    ]);
  });

  test('error: an amount only reachable through a bridge below the minimum is insufficient and says why', () => {
    const e = expectFailure(
      plan(input({ amount: usdc('0.5') }, { balances: { 'base-sepolia': usdc('0.2'), 'arbitrum-sepolia': usdc('10') }, minBridgeAmount: usdc('1') })),
    );
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ required: '0.5', available: '0.2', minBridgeAmount: '1' });
  });

  test("behavior: route fees follow CCTP's rule (rounded up in smallest units) so a plan never counts on more than arrives", () => {
    expect(cctpFee(usdc('100'), 10)).toBe(usdc('0.1'));
    expect(cctpFee(1_000_001n, 10)).toBe(1001n);
    expect(cctpFee(123n, 0)).toBe(0n);
    const r = expectPlan(plan(input({ amount: 1_000_001n }, { balances: { 'arbitrum-sepolia': usdc('5') }, routeFees: TEN_BPS })));
    expect(r.amount).toBe(1_000_001n - 1001n);
    expect(r.plan.steps[1]).toMatchObject({ amount: fromUnits(999_000n, 'USDC') });
  });

  test('behavior: DAI (18 decimals) on its best chain is planned exactly in wei', () => {
    const amount = dai('1.000000000000000001');
    const r = expectPlan(plan(input({ amount, asset: 'DAI' }, { balances: { 'arbitrum-sepolia': dai('2') } })));
    expect(r.plan.strategy).toBe('no-bridge');
    expect(r.plan.steps[0]).toMatchObject({ chain: 'arbitrum-sepolia', asset: 'DAI', amount: '1.000000000000000001' });
    expect(r.amount).toBe(1_000_000_000_000_000_001n);
    expect(r.plan.reasoning).toContain('DAI APY: arbitrum-sepolia/aave 6.25% > ethereum-sepolia/aave 5.50%');
  });

  test('behavior: USDC (6 decimals) and DAI (18 decimals) of the same face value differ only in units', () => {
    const a = expectPlan(plan(input({ amount: usdc('1.5'), chain: 'arbitrum-sepolia' }, { balances: { 'arbitrum-sepolia': usdc('1.5') } })));
    const b = expectPlan(plan(input({ amount: dai('1.5'), asset: 'DAI', chain: 'arbitrum-sepolia' }, { balances: { 'arbitrum-sepolia': dai('1.5') } })));
    expect([a.amount, b.amount]).toEqual([1_500_000n, 1_500_000_000_000_000_000n]);
    expect(a.plan.steps[0]?.amount).toBe(b.plan.steps[0]?.amount);
  });

  test('error: DAI away from the best chain cannot be bridged → INSUFFICIENT_FUNDS', () => {
    const e = expectFailure(plan(input({ amount: dai('1'), asset: 'DAI' }, { balances: { 'ethereum-sepolia': dai('100') } })));
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ required: '1', available: '0', perChain: { 'ethereum-sepolia': '100' }, asset: 'DAI', chain: 'arbitrum-sepolia' });
    expect(String(e.details.reason)).toContain('DAI cannot be bridged');
  });

  test('behavior: DAI rates on a chain without DAI (base-sepolia) are ignored', () => {
    const rates = [...RATES, { chain: 'base-sepolia' as const, protocol: 'aave', asset: 'DAI' as const, apy: 99 }];
    const r = expectPlan(plan(input({ amount: dai('1'), asset: 'DAI' }, { rates, balances: { 'arbitrum-sepolia': dai('1') } })));
    expect(r.plan.steps[0]?.chain).toBe('arbitrum-sepolia');
  });

  test('behavior: an APY tie goes to the chain already holding the funds, and the reasoning says so', () => {
    const rates = [
      { chain: 'base-sepolia' as const, protocol: 'aave', asset: 'USDC' as const, apy: 4 },
      { chain: 'arbitrum-sepolia' as const, protocol: 'aave', asset: 'USDC' as const, apy: 4 },
    ];
    const r = expectPlan(plan(input({ amount: usdc('10') }, { rates, balances: { 'arbitrum-sepolia': usdc('10'), 'base-sepolia': usdc('1') } })));
    expect(r.plan.strategy).toBe('no-bridge');
    expect(r.plan.steps[0]?.chain).toBe('arbitrum-sepolia');
    expect(r.plan.reasoning).toContain('arbitrum-sepolia/aave 4.00% = base-sepolia/aave 4.00%');
    expect(r.plan.reasoning).toContain('APY tie');
  });

  test('behavior: a full tie with equal funds is broken by registry order, then protocol name', () => {
    const rates = [
      { chain: 'base-sepolia' as const, protocol: 'morpho', asset: 'USDC' as const, apy: 4 },
      { chain: 'base-sepolia' as const, protocol: 'aave', asset: 'USDC' as const, apy: 4 },
      { chain: 'arbitrum-sepolia' as const, protocol: 'aave', asset: 'USDC' as const, apy: 4 },
    ];
    const r = expectPlan(plan(input({ amount: usdc('10') }, { rates, balances: { 'ethereum-sepolia': usdc('10') } })));
    expect(r.plan.steps.at(-1)).toMatchObject({ chain: 'arbitrum-sepolia', protocol: 'aave' });
    const again = expectPlan(plan(input({ amount: usdc('10') }, { rates: [...rates].reverse(), balances: { 'ethereum-sepolia': usdc('10') } })));
    expect(again.plan).toEqual(r.plan);
  });

  test('behavior: funds on a main network are never bridged to a test network', () => {
    const e = expectFailure(plan(input({ amount: usdc('10') }, { balances: { arbitrum: usdc('1000'), 'base-sepolia': usdc('1') } })));
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ available: '1' });
  });

  test('error: a client-named chain without a market for the asset → INVALID_CHAIN', () => {
    const e = expectFailure(plan(input({ amount: usdc('1'), chain: 'ethereum' }, { balances: { ethereum: usdc('5') } })));
    expect(e.code).toBe('INVALID_CHAIN');
    expect(e.details).toMatchObject({ chain: 'ethereum', asset: 'USDC' });
  });

  test('error: a client-named chain that lacks the asset → INVALID_REQUEST naming asset', () => {
    const e = expectFailure(plan(input({ amount: dai('1'), asset: 'DAI', chain: 'base-sepolia' })));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ issues: [{ path: 'asset' }] });
  });

  test('error: no rates at all for the asset → SERVICE_UNAVAILABLE', () => {
    const e = expectFailure(plan(input({ amount: usdc('1') }, { rates: [], balances: { 'base-sepolia': usdc('5') } })));
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
  });

  test('error: a non-positive amount → INVALID_REQUEST naming amount', () => {
    const e = expectFailure(plan(input({ amount: 0n }, { balances: { 'base-sepolia': usdc('5') } })));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ issues: [{ path: 'amount' }] });
  });

  test("behavior: a fractional route fee (as the attestation service answers, 1.3 bps) is charged by CCTP's rule, rounded up", () => {
    const r = expectPlan(
      plan(input({ amount: usdc('10') }, { balances: { 'arbitrum-sepolia': usdc('10') }, routeFees: { 'arbitrum-sepolia': { 'base-sepolia': 1.3 } } })),
    );
    expect(r.plan.steps[0]).toMatchObject({ type: 'bridge', fee: fromUnits(cctpFee(usdc('10'), 1.3), 'USDC'), maxFee: '0.0013' });
    expect(r.amount).toBe(usdc('10') - 1300n);
  });

  test('error: a malformed route fee is a programming error (INTERNAL_ERROR)', () => {
    const bad = { 'arbitrum-sepolia': { 'base-sepolia': -2.5 } };
    expect(() => plan(input({ amount: usdc('10') }, { balances: { 'arbitrum-sepolia': usdc('10') }, routeFees: bad }))).toThrow(
      expect.objectContaining({ code: 'INTERNAL_ERROR' }),
    );
  });

  test('behavior: the planner is pure: same input, same plan; inputs untouched', () => {
    const i = input({ amount: usdc('90') }, { balances: { 'arbitrum-sepolia': usdc('50'), 'ethereum-sepolia': usdc('45') }, routeFees: TEN_BPS });
    const before = JSON.stringify(i, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    expect(plan(i)).toEqual(plan(i));
    expect(JSON.stringify(i, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).toBe(before);
  });
});
