import { createHarness, usdc } from './engineHarness';
import { bridgeThenDepositPlan, pendingIntent } from './intentFixture';
import { lessReserved, reservedBalances } from '../../../src/engine/planner/reserved';
import type { Intent } from '../../../src/domain/intent';

const executing = (overrides: Partial<Intent> = {}): Intent =>
  pendingIntent({
    status: 'executing',
    executionPlan: bridgeThenDepositPlan(),
    results: { completedSteps: 0, transactions: [], totalGasUsed: '0', totalGasCostUsd: 0, finalAmount: '0', apy: 4 },
    ...overrides,
  });

const confirmed = (step: number, kind: string) => ({
  type: 'bridge' as const,
  kind,
  chain: 'arbitrum-sepolia' as const,
  step,
  txHash: `0x${kind}`,
  raw: '0x',
  status: 'confirmed',
});

describe('pending funds are reserved while planning', () => {
  test('behavior: an unstarted bridge + deposit holds its amount on the source chain; what it brings to the destination is not counted twice', () => {
    expect(reservedBalances([executing()], 'USDC')).toEqual({ 'arbitrum-sepolia': usdc('100') });
  });

  test('behavior: once the burn is confirmed the source is free; once the mint is confirmed the deposit holds its amount on the destination', () => {
    const burned = executing({ results: { ...executing().results!, transactions: [confirmed(0, 'burn')] } });
    expect(reservedBalances([burned], 'USDC')).toEqual({});
    const minted = executing({ results: { ...executing().results!, transactions: [confirmed(0, 'burn'), confirmed(0, 'mint')] } });
    expect(reservedBalances([minted], 'USDC')).toEqual({ 'base-sepolia': usdc('99.9') });
  });

  test('behavior: a mint that kept back less fee than planned → the deposit holds what the mint delivered, not the planned amount', () => {
    const delivered = { ...confirmed(0, 'mint'), minted: usdc('100').toString() };
    const minted = executing({ results: { ...executing().results!, transactions: [confirmed(0, 'burn'), delivered] } });
    expect(reservedBalances([minted], 'USDC')).toEqual({ 'base-sepolia': usdc('100') });
  });

  test('behavior: other assets reserve nothing; balances never go below zero', () => {
    expect(reservedBalances([executing()], 'WETH')).toEqual({});
    expect(lessReserved({ 'arbitrum-sepolia': usdc('30'), 'base-sepolia': usdc('5') }, { 'arbitrum-sepolia': usdc('100') })).toEqual({
      'base-sepolia': usdc('5'),
    });
  });

  test('error: a lend planned while another intent of the wallet is executing with the same tokens → INSUFFICIENT_FUNDS up front, nothing signed', async () => {
    const h = createHarness();
    try {
      const w = await h.wallet();
      h.chain.fund('arbitrum-sepolia', w.address, 'USDC', usdc('120'));
      // another instance is executing this wallet's bridge of 100 (its burn not sent yet)
      await h.store.intents.insert(executing({ id: 'intent_other', walletId: w.id }));
      const done = await h.settled((await h.submit(w.id, { amount: '50' })).id);
      expect(done.status).toBe('failed');
      expect(done.error?.code).toBe('INSUFFICIENT_FUNDS');
      expect(h.chain.signed).toHaveLength(0);

      const fits = await h.settled((await h.submit(w.id, { amount: '20' })).id);
      expect(fits.status).toBe('completed');
    } finally {
      await h.engine.stop();
    }
  });
});
