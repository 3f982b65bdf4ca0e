import { plan } from '../../../src/engine/planner/plan';
import type { PlanRequest } from '../../../src/engine/planner/types';
import { dai, expectFailure, expectPlan, input, usdc } from './plannerFixture';

const bridge = (amount: bigint, extra: Partial<PlanRequest> = {}) => ({
  action: 'bridge' as const,
  amount,
  fromChain: 'arbitrum-sepolia' as const,
  toChain: 'base-sepolia' as const,
  ...extra,
});
const FEES = { 'arbitrum-sepolia': { 'base-sepolia': 14 } };

describe('planner: bridge', () => {
  test('behavior: one bridge step fromChain → toChain; the plan amount is what arrives after the fee', () => {
    const r = expectPlan(plan(input(bridge(usdc('40')), { balances: { 'arbitrum-sepolia': usdc('50') }, routeFees: FEES })));
    expect(r.plan.strategy).toBe('single-bridge');
    expect(r.plan.steps).toEqual([
      {
        index: 0,
        type: 'bridge',
        status: 'pending',
        chain: 'arbitrum-sepolia',
        from: 'arbitrum-sepolia',
        to: 'base-sepolia',
        amount: '40',
        fee: '0.056',
        maxFee: '0.056',
      },
    ]);
    expect(r.amount).toBe(usdc('39.944'));
    expect(r.apy).toBeNull();
    expect(r.plan.reasoning).toBe(
      'Bridge 40 USDC from arbitrum-sepolia to base-sepolia via CCTP (burn and mint); route fee 0.056 USDC (14 bps); 39.944 USDC arrives.',
    );
  });

  test('behavior: a route without a fee delivers the full amount; the exact balance is enough', () => {
    const r = expectPlan(plan(input(bridge(usdc('50')), { balances: { 'arbitrum-sepolia': usdc('50') } })));
    expect(r.amount).toBe(usdc('50'));
    expect(r.plan.reasoning).toContain('no route fee');
  });

  test('error: a balance on fromChain short of the amount → INSUFFICIENT_FUNDS (funds elsewhere do not count)', () => {
    const e = expectFailure(plan(input(bridge(usdc('50')), { balances: { 'arbitrum-sepolia': usdc('49.999999'), 'ethereum-sepolia': usdc('100') } })));
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toEqual({
      required: '50',
      available: '49.999999',
      perChain: { 'ethereum-sepolia': '100', 'arbitrum-sepolia': '49.999999' },
      asset: 'USDC',
      strategy: 'insufficient',
      chain: 'arbitrum-sepolia',
    });
  });

  test('error: only USDC can be bridged → INVALID_REQUEST naming asset', () => {
    const e = expectFailure(plan(input({ ...bridge(dai('1')), asset: 'DAI' }, { balances: { 'arbitrum-sepolia': dai('5') } })));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ issues: [{ path: 'asset', message: 'only USDC can be bridged (CCTP)' }] });
  });

  test('error: same source and destination, or a missing one → INVALID_REQUEST naming the fields', () => {
    const same = expectFailure(plan(input(bridge(usdc('1'), { toChain: 'arbitrum-sepolia' }), { balances: { 'arbitrum-sepolia': usdc('5') } })));
    expect(same.details).toMatchObject({ issues: [{ path: 'toChain' }] });
    const missing = expectFailure(plan(input(bridge(usdc('1'), { fromChain: undefined, toChain: undefined }))));
    expect(missing.details).toMatchObject({ issues: [{ path: 'fromChain' }, { path: 'toChain' }] });
  });

  test('error: a main network to a test network → INVALID_CHAIN', () => {
    const e = expectFailure(plan(input(bridge(usdc('1'), { fromChain: 'arbitrum' }), { balances: { arbitrum: usdc('5') } })));
    expect(e.code).toBe('INVALID_CHAIN');
    expect(e.details).toMatchObject({ chain: 'base-sepolia', fromChain: 'arbitrum' });
  });

  test('error: an amount under the minimum bridge amount → INVALID_REQUEST naming amount', () => {
    const e = expectFailure(plan(input(bridge(usdc('0.5')), { balances: { 'arbitrum-sepolia': usdc('5') }, minBridgeAmount: usdc('1') })));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ issues: [{ path: 'amount' }] });
  });
});
