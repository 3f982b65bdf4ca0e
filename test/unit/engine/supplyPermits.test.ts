import type { ChainName } from '../../../src/domain/chains';
import type { Intent, Step } from '../../../src/domain/intent';
import { toIntentView } from '../../../src/app/intents/intentView';
import { leftoverAllowance } from '../../../src/engine/executor/subTransactions';
import { stepRequest, stepRequests, subTransactions } from '../../../src/engine/stepRequests';
import { withSupplyPermits } from '../../../src/engine/supplyPermits';
import type { AccountModel, ChainPort } from '../../../src/ports/chain';
import { pendingIntent } from './intentFixture';

const deposit = (chain: ChainName, protocol = 'aave-v3', extra: Partial<Step> = {}): Step =>
  ({ index: 0, type: 'deposit', status: 'pending', chain, protocol, asset: 'USDC', amount: '10', ...extra }) as Step;
const bridge: Step = { index: 0, type: 'bridge', status: 'pending', chain: 'arbitrum-sepolia', from: 'arbitrum-sepolia', to: 'base-sepolia', amount: '10' };

/** A port whose markets take permits as `permits` says, on chains of the given models (absent: plain). */
const port = (permits: (chain: ChainName, protocol: string) => boolean, models: Partial<Record<ChainName, AccountModel>> = {}) =>
  ({
    supplyPermit: (chain, protocol) => permits(chain, protocol),
    accountModel: (chain) => models[chain] ?? 'plain',
  }) satisfies Pick<ChainPort, 'accountModel' | 'supplyPermit'>;

describe('supply permits: decided at planning', () => {
  test('behavior: a deposit on a plain chain whose market takes a permit is marked; other steps are left as they are', () => {
    const steps = withSupplyPermits(
      [bridge, { ...deposit('base-sepolia'), index: 1 }],
      port((_, p) => p === 'aave-v3'),
    );
    expect(steps[0]).toBe(bridge);
    expect(steps[1]).toMatchObject({ type: 'deposit', permit: true });
  });

  test('behavior: a market without a permit supply (Compound), a 7702 chain, or a port that cannot tell → approve + supply', () => {
    const aaveOnly = port((_, p) => p === 'aave-v3', { 'arbitrum-sepolia': '7702' });
    expect(withSupplyPermits([deposit('ethereum-sepolia', 'compound-v3')], aaveOnly)[0]).not.toHaveProperty('permit');
    expect(withSupplyPermits([deposit('arbitrum-sepolia')], aaveOnly)[0]).not.toHaveProperty('permit');
    expect(withSupplyPermits([deposit('base-sepolia')], {})[0]).not.toHaveProperty('permit');
  });

  test('behavior: the planned steps are copies: the planner’s plan is not changed', () => {
    const planned = deposit('base-sepolia');
    withSupplyPermits(
      [planned],
      port(() => true),
    );
    expect(planned).not.toHaveProperty('permit');
  });
});

describe('supply permits: what a permit deposit sends', () => {
  const permitted = deposit('base-sepolia', 'aave-v3', { permit: true } as Partial<Step>);

  test('behavior: the supply alone, the main transaction, carrying the permit; the simulation grants the funds it supplies', () => {
    expect(subTransactions(permitted)).toEqual([{ kind: 'supply', chain: 'base-sepolia', signer: 'wallet', main: true }]);
    expect(stepRequest(permitted, 'supply')).toEqual({
      kind: 'supply',
      chain: 'base-sepolia',
      protocol: 'aave-v3',
      asset: 'USDC',
      amount: 10_000_000n,
      permit: true,
    });
    expect(stepRequests(permitted)).toEqual([
      {
        tx: { kind: 'supply', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: 10_000_000n, permit: true },
        assume: { asset: 'USDC', amount: 10_000_000n, spender: 'aave-v3' },
      },
    ]);
  });

  test('behavior: without the mark, approve + supply, and the supply carries no permit', () => {
    expect(subTransactions(deposit('base-sepolia')).map((s) => s.kind)).toEqual(['approve', 'supply']);
    expect(stepRequest(deposit('base-sepolia'), 'supply')).not.toHaveProperty('permit');
  });

  test('behavior: a failed permit supply owes no revoke (the permit reverted with it)', () => {
    const results: Intent['results'] = {
      completedSteps: 0,
      transactions: [
        { type: 'deposit', step: 0, kind: 'supply', chain: 'base-sepolia', txHash: `0x${'1'.repeat(64)}`, status: 'reverted', raw: '0x', nonce: 0 },
      ] as unknown as NonNullable<Intent['results']>['transactions'],
      totalGasUsed: '0',
      totalGasCostUsd: 0,
      finalAmount: '0',
      apy: 4,
    };
    expect(leftoverAllowance(permitted, results)).toBeNull();
  });

  test('behavior: the API view of the intent does not show the mark', () => {
    const intent = pendingIntent({ status: 'executing', executionPlan: { strategy: 'direct-deposit', reasoning: 'r', steps: [permitted] } });
    const view = toIntentView(intent);
    expect(view.executionPlan?.steps[0]).not.toHaveProperty('permit');
    expect(view.executionPlan?.steps[0]).toMatchObject({ type: 'deposit', amountUnits: '10000000' });
    // the record keeps it: execution and a restart read it there
    expect(intent.executionPlan?.steps[0]).toHaveProperty('permit', true);
  });
});
