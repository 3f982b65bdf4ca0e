import type { ChainName } from '../../../src/domain/chains';
import { plan } from '../../../src/engine/planner/plan';
import { dai, expectFailure, expectPlan, input, usdc } from './plannerFixture';

const withdraw = (amount: bigint, chain?: ChainName) => ({ action: 'withdraw' as const, amount, chain });

describe('planner: withdraw', () => {
  test('behavior: one withdraw step from the position on the chain → direct-withdraw', () => {
    const r = expectPlan(plan(input(withdraw(usdc('40'), 'base-sepolia'), { positions: { 'base-sepolia': { aave: usdc('50') } } })));
    expect(r.plan.strategy).toBe('direct-withdraw');
    expect(r.plan.steps).toEqual([{ index: 0, type: 'withdraw', status: 'pending', chain: 'base-sepolia', protocol: 'aave', asset: 'USDC', amount: '40' }]);
    expect(r.amount).toBe(usdc('40'));
    expect(r.apy).toBe(4.2);
    expect(r.plan.reasoning).toBe('Withdraw 40 USDC from aave on base-sepolia (position 50 USDC, APY 4.20%).');
  });

  test('behavior: the whole position (exact amount) can be withdrawn', () => {
    const r = expectPlan(plan(input(withdraw(usdc('50'), 'base-sepolia'), { positions: { 'base-sepolia': { aave: usdc('50') } } })));
    expect(r.plan.steps[0]).toMatchObject({ amount: '50' });
  });

  test('behavior: with two covering positions the lower-APY one is drawn, keeping the better one', () => {
    const r = expectPlan(plan(input(withdraw(usdc('40'), 'base-sepolia'), { positions: { 'base-sepolia': { aave: usdc('50'), compound: usdc('60') } } })));
    expect(r.plan.steps[0]).toMatchObject({ protocol: 'compound' });
    expect(r.apy).toBe(3.9);
    expect(r.plan.reasoning).toContain('Keeping aave 4.20%');
  });

  test('behavior: only a position that covers the amount is used, whatever its APY', () => {
    const r = expectPlan(plan(input(withdraw(usdc('55'), 'base-sepolia'), { positions: { 'base-sepolia': { aave: usdc('60'), compound: usdc('50') } } })));
    expect(r.plan.steps[0]).toMatchObject({ protocol: 'aave' });
  });

  test('behavior: a position in a protocol without a known rate is still withdrawable (APY unknown)', () => {
    const r = expectPlan(plan(input(withdraw(usdc('1'), 'arbitrum-sepolia'), { positions: { 'arbitrum-sepolia': { morpho: usdc('2') } } })));
    expect(r.apy).toBeNull();
    expect(r.plan.reasoning).toContain('APY unknown');
  });

  test('behavior: DAI (18 decimals) withdraws exactly', () => {
    const r = expectPlan(
      plan(input({ ...withdraw(dai('0.000000000000000001'), 'arbitrum-sepolia'), asset: 'DAI' }, { positions: { 'arbitrum-sepolia': { aave: 1n } } })),
    );
    expect(r.plan.steps[0]).toMatchObject({ asset: 'DAI', amount: '0.000000000000000001' });
    expect(r.amount).toBe(1n);
  });

  test('error: more than the position → INSUFFICIENT_FUNDS with the largest position as available', () => {
    const e = expectFailure(
      plan(
        input(withdraw(usdc('70'), 'base-sepolia'), {
          positions: { 'base-sepolia': { aave: usdc('50'), compound: usdc('60') }, 'arbitrum-sepolia': { aave: usdc('500') } },
        }),
      ),
    );
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toEqual({
      required: '70',
      available: '60',
      perChain: { 'arbitrum-sepolia': '500', 'base-sepolia': '110' },
      asset: 'USDC',
      strategy: 'insufficient',
      chain: 'base-sepolia',
    });
  });

  test('error: no position on the chain → INSUFFICIENT_FUNDS with available 0', () => {
    const e = expectFailure(plan(input(withdraw(usdc('1'), 'ethereum-sepolia'), { positions: { 'base-sepolia': { aave: usdc('5') } } })));
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ available: '0', chain: 'ethereum-sepolia' });
  });

  test('error: withdraw without a chain → INVALID_REQUEST naming chain', () => {
    const e = expectFailure(plan(input(withdraw(usdc('1')))));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ issues: [{ path: 'chain' }] });
  });
});
