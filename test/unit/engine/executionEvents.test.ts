import type { Intent } from '../../../src/domain/intent';
import { INTENT_MACHINE, isFinal, transition, type IntentEvent } from '../../../src/domain/intentStateMachine';
import { SimulatedClock } from '../../../src/domain/clock';
import { advance } from '../../../src/engine/advance';
import { nextAction } from '../../../src/engine/executor/nextAction';
import type { UnitContext } from '../../../src/engine/unitContext';
import { FakeChain, testKeyVault, testAddress } from './fakeChain';
import { MARKETS, usdc } from './engineHarness';
import { bridgeThenDepositPlan, pendingIntent, walletRecord } from './intentFixture';

const t0 = new Date('2025-01-01T00:00:01.000Z');
const t1 = new Date('2025-01-01T00:00:02.000Z');

/** A single-bridge lend, executing, its steps pending. */
function executing(): Intent {
  const planned = transition(pendingIntent(), { type: 'plan' }, t0);
  return transition(planned, { type: 'execute', plan: bridgeThenDepositPlan(), amount: '99.9', apy: 4.2 }, t0);
}

const hash = (n: number): `0x${string}` => `0x${String(n).padStart(64, '0')}`;
const receipt = (n: number, status: 'success' | 'reverted' = 'success') => ({ txHash: hash(n), status, gasUsed: 1000n, gasCostUsd: 0.01 });

describe('intent state machine: the execution events', () => {
  test('behavior: each execution event is a row of its own, executing → executing, and progress is no longer the executor’s only move', () => {
    const named = [
      'stepStarted',
      'txSigned',
      'txReplaced',
      'txObserved',
      'txConfirmed',
      'txReverted',
      'retryNoted',
      'revokeSigned',
      'revokeMined',
      'stepCompleted',
    ];
    for (const type of named) expect(INTENT_MACHINE[type as keyof typeof INTENT_MACHINE]).toEqual({ from: ['executing'], to: 'executing' });
  });

  test('behavior: a bridge step written by its events is what nextAction reads back, step by step', () => {
    let i = executing();
    const apply = (e: IntentEvent, at = t1): Intent => (i = transition(i, e, at));
    expect(nextAction(i)).toMatchObject({ type: 'start-step', step: { index: 0 } });

    apply({ type: 'stepStarted', step: 0 });
    expect(i.executionPlan!.steps[0]).toMatchObject({ status: 'executing', startedAt: t1.toISOString() });
    expect(nextAction(i)).toMatchObject({ type: 'sub-tx', spec: { kind: 'approve' } });

    apply({ type: 'txSigned', step: 0, tx: { kind: 'approve', chain: 'arbitrum-sepolia', txHash: hash(1), raw: '0x01' }, main: false });
    expect(nextAction(i)).toMatchObject({ type: 'sub-tx', spec: { kind: 'approve' }, record: { txHash: hash(1), status: 'signed', sentAt: t1.toISOString() } });
    expect(i.executionPlan!.steps[0]!.txHash).toBeUndefined();

    apply({ type: 'retryNoted', step: 0, attempts: 2, error: { code: 'NETWORK_ERROR', message: 'node down' }, nextAttemptAt: t1.toISOString() });
    expect(i.executionPlan!.steps[0]).toMatchObject({ attempts: 2, lastError: { code: 'NETWORK_ERROR' }, nextAttemptAt: t1.toISOString() });

    apply({ type: 'txConfirmed', step: 0, receipt: receipt(1), main: false });
    expect(i.executionPlan!.steps[0]).not.toHaveProperty('attempts');
    expect(i.executionPlan!.steps[0]).not.toHaveProperty('lastError');
    expect(nextAction(i)).toMatchObject({ type: 'sub-tx', spec: { kind: 'burn', main: true } });

    apply({ type: 'txSigned', step: 0, tx: { kind: 'burn', chain: 'arbitrum-sepolia', txHash: hash(2), raw: '0x02' }, main: true });
    expect(i.executionPlan!.steps[0]!.txHash).toBe(hash(2));
    apply({ type: 'txReplaced', step: 0, tx: { kind: 'burn', chain: 'arbitrum-sepolia', txHash: hash(3), raw: '0x03' }, main: true });
    expect(nextAction(i)).toMatchObject({ type: 'sub-tx', spec: { kind: 'burn' }, record: { txHash: hash(3), replaced: [hash(2)] } });
    expect(i.executionPlan!.steps[0]!.txHash).toBe(hash(3));

    // the first bytes were mined after all: their hash is the outcome and the step's
    apply({ type: 'txConfirmed', step: 0, receipt: receipt(2), main: true });
    expect(i.executionPlan!.steps[0]!.txHash).toBe(hash(2));
    expect(i.results!.transactions.at(-1)).toMatchObject({ kind: 'burn', status: 'confirmed', txHash: hash(2), replaced: [hash(3)] });

    apply({ type: 'txObserved', step: 0, kind: 'mint', chain: 'base-sepolia', txHash: hash(4) });
    expect(nextAction(i)).toMatchObject({ type: 'sub-tx', spec: { kind: 'mint' }, record: { txHash: hash(4), raw: '0x' } });
    apply({ type: 'txConfirmed', step: 0, receipt: { ...receipt(4), minted: usdc('99.9') }, main: false });
    expect(nextAction(i)).toMatchObject({ type: 'finish-step', step: { index: 0 } });
    expect(i.results).toMatchObject({ totalGasUsed: '3000', totalGasCostUsd: 0.03 });

    apply({ type: 'stepCompleted', step: { ...i.executionPlan!.steps[0]!, status: 'completed' }, results: { ...i.results!, completedSteps: 1 } });
    expect(nextAction(i)).toMatchObject({ type: 'start-step', step: { index: 1 } });
    expect(i.version).toBe(2 + 10);
  });

  test('behavior: a reverted receipt is recorded as txReverted, and a revoke’s events leave the step’s hash alone', () => {
    let i = transition(executing(), { type: 'stepStarted', step: 0 }, t1);
    const apply = (e: IntentEvent): Intent => (i = transition(i, e, t1));
    apply({ type: 'txSigned', step: 0, tx: { kind: 'approve', chain: 'arbitrum-sepolia', txHash: hash(1), raw: '0x01' }, main: false });
    apply({ type: 'txConfirmed', step: 0, receipt: receipt(1), main: false });
    apply({ type: 'txSigned', step: 0, tx: { kind: 'burn', chain: 'arbitrum-sepolia', txHash: hash(2), raw: '0x02' }, main: true });
    apply({ type: 'txReverted', step: 0, receipt: receipt(2, 'reverted'), main: true });
    expect(nextAction(i)).toMatchObject({ type: 'reverted', record: { kind: 'burn', txHash: hash(2) } });

    apply({ type: 'revokeSigned', step: 0, tx: { kind: 'revoke', chain: 'arbitrum-sepolia', txHash: hash(5), raw: '0x05' } });
    apply({ type: 'revokeMined', step: 0, receipt: receipt(5) });
    expect(i.executionPlan!.steps[0]!.txHash).toBe(hash(2));
    expect(i.results!.transactions.at(-1)).toMatchObject({ kind: 'revoke', status: 'confirmed', txHash: hash(5) });
  });

  test('error: an execution event on a step in the wrong state, or a receipt under the wrong name, is a programming error', () => {
    const i = executing();
    const signed: IntentEvent = { type: 'txSigned', step: 0, tx: { kind: 'approve', chain: 'arbitrum-sepolia', txHash: hash(1), raw: '0x01' }, main: false };
    expect(() => transition(i, signed, t1)).toThrow(
      expect.objectContaining({ code: 'INTERNAL_ERROR', details: expect.objectContaining({ event: 'txSigned' }) }),
    );
    const started = transition(i, { type: 'stepStarted', step: 0 }, t1);
    expect(() => transition(started, { type: 'stepStarted', step: 0 }, t1)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
    const mislabelled: IntentEvent = { type: 'txConfirmed', step: 0, receipt: receipt(1, 'reverted'), main: false };
    expect(() => transition(transition(started, signed, t1), mislabelled, t1)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
    expect(() => transition(started, { type: 'stepCompleted', step: started.executionPlan!.steps[0]!, results: started.results! }, t1)).toThrow(
      expect.objectContaining({ code: 'INTERNAL_ERROR' }),
    );
  });
});

describe('executor: the events it commits', () => {
  test('behavior: a lend with a bridge commits named events in order, never the catch-all progress', async () => {
    const clock = new SimulatedClock(t0);
    const chain = new FakeChain({ rates: MARKETS, feeBps: 5 });
    const walletId = 'svc_wallet_events';
    const address = testAddress(walletId);
    const wallet = walletRecord(walletId, address, 'acct_0001');
    chain.fund('arbitrum-sepolia', address, 'USDC', usdc('100'));
    let current = pendingIntent({ walletId, amount: '50', requestedAmount: '50' });
    const events: string[] = [];
    const ctx: UnitContext = {
      chains: chain,
      keyVault: testKeyVault(),
      wallets: { getById: async (id) => (id === walletId ? wallet : null) },
      intents: { listByWallet: async () => [] },
      clock,
      retry: { attempts: 3, baseMs: 10, maxMs: 10, inFlightMaxMs: 10 },
      txStuckAfterMs: 60_000,
      signal: new AbortController().signal,
      commit: async (event) => {
        events.push(event.type === 'txSigned' || event.type === 'txConfirmed' ? `${event.type}:${'tx' in event ? event.tx.kind : event.step}` : event.type);
        return (current = transition(current, event, clock.now()));
      },
    };
    for (let units = 0; !isFinal(current.status) && units < 50; units++) await advance(current, ctx);

    expect(current.status).toBe('completed');
    expect(current.executionPlan!.steps.map((s) => s.type)).toEqual(['bridge', 'deposit']);
    expect(events).toEqual([
      'plan',
      'execute',
      'stepStarted',
      'txSigned:approve',
      'txConfirmed:0',
      'txSigned:burn',
      'txConfirmed:0',
      'txSigned:mint',
      'txConfirmed:0',
      'stepCompleted',
      'stepStarted',
      'txSigned:approve',
      'txConfirmed:1',
      'txSigned:supply',
      'txConfirmed:1',
      'complete',
    ]);
  });
});
