import type { ChainName, LendingProtocol } from '../../../src/domain/chains';
import { plan } from '../../../src/engine/planner/plan';
import type { PlannerInput, RateQuote } from '../../../src/engine/planner/types';
import { expectFailure, expectPlan, usdc } from './plannerFixture';

/** USDC markets of the test networks; ethereum-sepolia/aave-v3 exists only in the sandbox. */
const MARKETS: RateQuote[] = [
  { chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 3.1 },
  { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 4.2 },
  { chain: 'base-sepolia', protocol: 'compound-v3', asset: 'USDC', apy: 3.9 },
  { chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 5.5, sandboxOnly: true },
];

type Source = { chain: ChainName; protocol: LendingProtocol | null; amount: string };

/** A rebalance into (toChain, toProtocol) from `sources`, over the given holdings; route fees of 10 bps on every route. */
function rebalance(toChain: ChainName, toProtocol: LendingProtocol, sources: Source[], rest: Partial<Omit<PlannerInput, 'request'>> = {}): PlannerInput {
  const planned = sources.map((s) => ({ ...s, amount: usdc(s.amount) }));
  return {
    request: { action: 'rebalance', asset: 'USDC', amount: planned.reduce((sum, s) => sum + s.amount, 0n), toChain, toProtocol, sources: planned },
    balances: {},
    positions: {},
    rates: MARKETS,
    routeFees: {
      'arbitrum-sepolia': { 'ethereum-sepolia': 10, 'base-sepolia': 10 },
      'base-sepolia': { 'ethereum-sepolia': 10, 'arbitrum-sepolia': 10 },
      'ethereum-sepolia': { 'base-sepolia': 10, 'arbitrum-sepolia': 10 },
    },
    ...rest,
  };
}

describe('planner: rebalance', () => {
  test('behavior: one position on another chain → withdraw, bridge (fee kept back by the mint), deposit of what arrives', () => {
    const r = expectPlan(
      plan(
        rebalance('ethereum-sepolia', 'aave-v3', [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '100' }], {
          positions: { 'arbitrum-sepolia': { 'aave-v3': usdc('150') } },
        }),
      ),
    );
    expect(r.plan.strategy).toBe('rebalance');
    expect(r.plan.steps).toEqual([
      { index: 0, type: 'withdraw', status: 'pending', chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '100' },
      {
        index: 1,
        type: 'bridge',
        status: 'pending',
        chain: 'arbitrum-sepolia',
        from: 'arbitrum-sepolia',
        to: 'ethereum-sepolia',
        amount: '100',
        fee: '0.1',
        maxFee: '0.1',
      },
      { index: 2, type: 'deposit', status: 'pending', chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '99.9', sandboxOnly: true },
    ]);
    expect(r.amount).toBe(usdc('99.9'));
    expect(r.apy).toBe(5.5);
    expect(r.plan.reasoning).toBe(
      'Rebalance 100 USDC into aave-v3 on ethereum-sepolia (APY 5.50%) from 100 USDC from aave-v3 on arbitrum-sepolia. ' +
        'Bridging to ethereum-sepolia via CCTP: 100 USDC from arbitrum-sepolia (route fee 0.1 USDC, 10 bps). Depositing 99.9 USDC of the 100 USDC moved after route fees.',
    );
  });

  test('behavior: two positions on two chains → a withdraw and a bridge per chain, one deposit of the sum less both fees', () => {
    const r = expectPlan(
      plan(
        rebalance(
          'ethereum-sepolia',
          'aave-v3',
          [
            { chain: 'base-sepolia', protocol: 'compound-v3', amount: '40' },
            { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '60' },
          ],
          { positions: { 'arbitrum-sepolia': { 'aave-v3': usdc('60') }, 'base-sepolia': { 'compound-v3': usdc('40') } } },
        ),
      ),
    );
    expect(r.plan.steps.map((s) => `${s.type}@${s.chain}:${s.amount}`)).toEqual([
      'withdraw@base-sepolia:40',
      'withdraw@arbitrum-sepolia:60',
      'bridge@arbitrum-sepolia:60',
      'bridge@base-sepolia:40',
      'deposit@ethereum-sepolia:99.9',
    ]);
    expect(r.plan.steps[2]).toMatchObject({ fee: '0.06' });
    expect(r.plan.steps[3]).toMatchObject({ fee: '0.04' });
    expect(r.amount).toBe(usdc('99.9'));
  });

  test('behavior: an idle source and a position on the same chain travel in one bridge; idle funds need no withdraw', () => {
    const r = expectPlan(
      plan(
        rebalance(
          'base-sepolia',
          'aave-v3',
          [
            { chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '30' },
            { chain: 'arbitrum-sepolia', protocol: null, amount: '20' },
            { chain: 'base-sepolia', protocol: null, amount: '5' },
          ],
          { positions: { 'arbitrum-sepolia': { 'aave-v3': usdc('30') } }, balances: { 'arbitrum-sepolia': usdc('20'), 'base-sepolia': usdc('5') } },
        ),
      ),
    );
    expect(r.plan.steps.map((s) => `${s.type}@${s.chain}:${s.amount}`)).toEqual([
      'withdraw@arbitrum-sepolia:30',
      'bridge@arbitrum-sepolia:50',
      'deposit@base-sepolia:54.95',
    ]);
    expect(r.plan.reasoning).toContain('20 USDC idle on arbitrum-sepolia, 5 USDC idle on base-sepolia');
  });

  test('behavior: a move between two markets of one chain is a withdraw and a deposit, no bridge, nothing lost', () => {
    const r = expectPlan(
      plan(
        rebalance('base-sepolia', 'aave-v3', [{ chain: 'base-sepolia', protocol: 'compound-v3', amount: '25.5' }], {
          positions: { 'base-sepolia': { 'compound-v3': usdc('25.5') } },
        }),
      ),
    );
    expect(r.plan.steps.map((s) => `${s.type}@${s.chain}:${s.amount}`)).toEqual(['withdraw@base-sepolia:25.5', 'deposit@base-sepolia:25.5']);
    expect(r.plan.steps[1]).toMatchObject({ protocol: 'aave-v3' });
    expect(r.amount).toBe(usdc('25.5'));
    expect(r.plan.reasoning).toContain('Every source is on base-sepolia: no bridge needed. Depositing 25.5 USDC.');
  });

  test('error: a position that no longer covers its source → INSUFFICIENT_FUNDS naming the source, no plan', () => {
    const e = expectFailure(
      plan(
        rebalance('ethereum-sepolia', 'aave-v3', [{ chain: 'arbitrum-sepolia', protocol: 'aave-v3', amount: '100' }], {
          positions: { 'arbitrum-sepolia': { 'aave-v3': usdc('99.999999') } },
        }),
      ),
    );
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ required: '100', available: '99.999999', chain: 'arbitrum-sepolia', source: 'aave-v3', strategy: 'insufficient' });
  });

  test('error: idle sources of one chain draw on one balance: two that together exceed it → INSUFFICIENT_FUNDS', () => {
    const e = expectFailure(
      plan(
        rebalance(
          'base-sepolia',
          'aave-v3',
          [
            { chain: 'arbitrum-sepolia', protocol: null, amount: '10' },
            { chain: 'base-sepolia', protocol: null, amount: '1' },
          ],
          { balances: { 'arbitrum-sepolia': usdc('10'), 'base-sepolia': usdc('0.5') } },
        ),
      ),
    );
    expect(e.code).toBe('INSUFFICIENT_FUNDS');
    expect(e.details).toMatchObject({ required: '1', available: '0.5', chain: 'base-sepolia', source: 'idle' });
  });

  test('error: a target market that does not exist for the asset → INVALID_CHAIN naming it', () => {
    const e = expectFailure(
      plan(
        rebalance('arbitrum-sepolia', 'compound-v3', [{ chain: 'base-sepolia', protocol: 'aave-v3', amount: '10' }], {
          positions: { 'base-sepolia': { 'aave-v3': usdc('10') } },
        }),
      ),
    );
    expect(e.code).toBe('INVALID_CHAIN');
    expect(e.message).toBe('There is no compound-v3 market for USDC on arbitrum-sepolia');
    expect(e.details).toMatchObject({ chain: 'arbitrum-sepolia', protocol: 'compound-v3', asset: 'USDC' });
  });

  test('error: an amount that is not the sum of the sources → INVALID_REQUEST', () => {
    const input = rebalance('base-sepolia', 'aave-v3', [{ chain: 'base-sepolia', protocol: null, amount: '10' }], { balances: { 'base-sepolia': usdc('10') } });
    const e = expectFailure(plan({ ...input, request: { ...input.request, amount: usdc('11') } }));
    expect(e.code).toBe('INVALID_REQUEST');
    expect(e.details).toMatchObject({ issues: [{ path: 'amount' }] });
  });
});
