import type { ChainName } from '../../../src/domain/chains';
import { estimateIntentGasWei, intentOperations } from '../../../src/app/budgets/gasBudget';
import { chainCallsGas, operationOverheadGas } from '../../../src/engine/operationGas';
import { stepGasUsd } from '../../../src/engine/planner/netReturn';
import type { AccountModel, ChainPort, GasQuote } from '../../../src/ports/chain';
import { AUTHORIZATION_GAS, OPERATION_OVERHEAD_GAS, TYPICAL_GAS } from '../../../src/ports/typicalGas';

/** Pricing a chain's calls as its account model runs them: one rule for the budget, the preview and the ranking. */

const GWEI = 1_000_000_000n;

describe('the rule: one chain’s calls as they are paid', () => {
  test('behavior: on a plain chain the sum of the calls’ gas, nothing added', () => {
    expect(operationOverheadGas('plain')).toBe(0n);
    expect(chainCallsGas('plain', [55_000n, 226_000n])).toBe(281_000n);
  });

  test('behavior: on a 7702 chain one operation: the calls, its overhead, and the authorization while the wallet is not delegated', () => {
    expect(chainCallsGas('7702', [55_000n, 226_000n])).toBe(281_000n + OPERATION_OVERHEAD_GAS + AUTHORIZATION_GAS);
    expect(chainCallsGas('7702', [55_000n, 226_000n], { delegated: true })).toBe(281_000n + OPERATION_OVERHEAD_GAS);
    expect(chainCallsGas('7702', [55_000n, 226_000n], { delegated: false })).toBe(281_000n + OPERATION_OVERHEAD_GAS + AUTHORIZATION_GAS);
  });
});

describe('the net-return ranking prices each chain by its model', () => {
  const price = { gasPriceWei: GWEI, ethUsd: 1000 };
  const prices = { 'base-sepolia': price, 'arbitrum-sepolia': price };
  const gas = { approve: 50_000n, supply: 100_000n, burn: 100_000n, mint: 100_000n };
  const usd = (units: bigint): number => Number(units) * 1e-9 * 1000;

  test('behavior: a deposit on a 7702 chain costs its operation’s overhead more; on a plain chain approve + supply as before', () => {
    const g = stepGasUsd(prices, gas, { 'base-sepolia': '7702' });
    expect(g.deposit['base-sepolia']).toBeCloseTo(usd(150_000n + OPERATION_OVERHEAD_GAS + AUTHORIZATION_GAS), 10);
    expect(g.deposit['arbitrum-sepolia']).toBeCloseTo(usd(150_000n), 10);
  });

  test('behavior: a bridge from a 7702 chain is one operation there; its mint rides in the destination’s operation (its overhead counted with the deposit)', () => {
    const g = stepGasUsd(prices, gas, { 'arbitrum-sepolia': '7702', 'base-sepolia': '7702' });
    expect(g.bridge['arbitrum-sepolia']?.['base-sepolia']).toBeCloseTo(usd(150_000n + OPERATION_OVERHEAD_GAS + AUTHORIZATION_GAS) + usd(100_000n), 10);
    // without models every chain is plain
    expect(stepGasUsd(prices, gas).bridge['arbitrum-sepolia']?.['base-sepolia']).toBeCloseTo(usd(250_000n), 10);
  });
});

describe('the gas budget’s estimate', () => {
  const chains = (models: Partial<Record<ChainName, AccountModel>>): Pick<ChainPort, 'gasQuote' | 'accountModel'> => ({
    gasQuote: async (chain): Promise<GasQuote> => ({ chain, gasPriceWei: GWEI, ethUsd: 1000 }),
    accountModel: (chain) => models[chain] ?? 'plain',
  });
  const lendCalls = TYPICAL_GAS.approve + TYPICAL_GAS.supply;
  const perOperation = OPERATION_OVERHEAD_GAS + AUTHORIZATION_GAS;

  test('behavior: on plain chains the typical gas of the transactions, as before', async () => {
    expect(await estimateIntentGasWei(chains({}), { action: 'lend' }, ['base-sepolia'])).toBe(lendCalls * GWEI);
  });

  test('behavior: where a chain it may run on is 7702, each of its operations is priced with the overhead (a bridge: two chains, two operations)', async () => {
    expect(await estimateIntentGasWei(chains({ 'base-sepolia': '7702' }), { action: 'lend' }, ['base-sepolia'])).toBe((lendCalls + perOperation) * GWEI);
    const bridgeCalls = TYPICAL_GAS.approve + TYPICAL_GAS.burn + TYPICAL_GAS.mint;
    expect(await estimateIntentGasWei(chains({ 'base-sepolia': '7702' }), { action: 'bridge' }, ['arbitrum-sepolia', 'base-sepolia'])).toBe(
      (bridgeCalls + 2n * perOperation) * GWEI,
    );
  });

  test('behavior: a rebalance is one operation per chain it bridges from, and one on its destination', () => {
    const sources = [
      { chain: 'arbitrum-sepolia' as const, protocol: 'aave-v3' as const, amount: '1' },
      { chain: 'ethereum-sepolia' as const, protocol: null, amount: '1' },
      { chain: 'base-sepolia' as const, protocol: 'aave-v3' as const, amount: '1' },
    ];
    expect(intentOperations({ action: 'rebalance', toChain: 'base-sepolia', sources } as never)).toBe(3);
    expect(intentOperations({ action: 'lend' })).toBe(1);
    expect(intentOperations({ action: 'withdraw' })).toBe(1);
  });
});
