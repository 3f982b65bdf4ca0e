import type { ExecutionPlan, Intent, Step } from '../../../src/domain/intent';
import { transition } from '../../../src/domain/intentStateMachine';
import { withOperationMined, withOperationSigned, type SubTxRecord } from '../../../src/domain/txRecords';
import { nextAction } from '../../../src/engine/executor/nextAction';
import { executionOrder } from '../../../src/engine/executor/operations';
import { bridgeThenDepositPlan, pendingIntent } from './intentFixture';

const at = new Date('2025-01-01T00:01:00.000Z');
const bundle = `0x${'b'.repeat(64)}` as const;
const opHash = `0x${'c'.repeat(64)}` as const;

/** A rebalance from two chains into one: withdraw + bridge from each source, then one deposit. */
function twoSourceRebalance(): ExecutionPlan {
  return {
    strategy: 'rebalance',
    reasoning: 'test plan',
    steps: [
      { index: 0, type: 'withdraw', status: 'pending', chain: 'arbitrum-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '50' },
      { index: 1, type: 'bridge', status: 'pending', chain: 'arbitrum-sepolia', from: 'arbitrum-sepolia', to: 'base-sepolia', amount: '50', fee: '0' },
      { index: 2, type: 'withdraw', status: 'pending', chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '50' },
      { index: 3, type: 'bridge', status: 'pending', chain: 'ethereum-sepolia', from: 'ethereum-sepolia', to: 'base-sepolia', amount: '50', fee: '0' },
      { index: 4, type: 'deposit', status: 'pending', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '100' },
    ],
  } as ExecutionPlan;
}

function executingIntent(plan: ExecutionPlan, models: Intent['accountModels']): Intent {
  return pendingIntent({
    status: 'executing',
    action: 'rebalance',
    executionPlan: plan,
    accountModels: models,
    results: { completedSteps: 0, transactions: [], totalGasUsed: '0', totalGasCostUsd: 0, finalAmount: '0', apy: 4 },
  });
}

const all7702 = { 'arbitrum-sepolia': '7702', 'ethereum-sepolia': '7702', 'base-sepolia': '7702' } as const;

/** Starts every step nextAction asks to start, until it asks for something else. */
function startAll(intent: Intent): Intent {
  let i = intent;
  for (let a = nextAction(i); a.type === 'start-step'; a = nextAction(i)) i = transition(i, { type: 'stepStarted', step: a.step.index }, at);
  return i;
}

const kinds = (i: Intent) => executionOrder(i).map((u) => `${u.spec.chain}:${u.step.index}:${u.spec.kind}`);

describe('executor: user operations (7702 chains)', () => {
  test('behavior: with no 7702 chain the execution order is the plan order, step after step', () => {
    const i = executingIntent(twoSourceRebalance(), undefined);
    expect(kinds(i)).toEqual([
      'arbitrum-sepolia:0:withdraw',
      'arbitrum-sepolia:1:approve',
      'arbitrum-sepolia:1:burn',
      'base-sepolia:1:mint',
      'ethereum-sepolia:2:withdraw',
      'ethereum-sepolia:3:approve',
      'ethereum-sepolia:3:burn',
      'base-sepolia:3:mint',
      'base-sepolia:4:approve',
      'base-sepolia:4:supply',
    ]);
  });

  test('behavior: a rebalance from two chains runs one operation per chain, the destination last with both mints', () => {
    const i = executingIntent(twoSourceRebalance(), all7702);
    expect(kinds(i)).toEqual([
      'arbitrum-sepolia:0:withdraw',
      'arbitrum-sepolia:1:approve',
      'arbitrum-sepolia:1:burn',
      'ethereum-sepolia:2:withdraw',
      'ethereum-sepolia:3:approve',
      'ethereum-sepolia:3:burn',
      'base-sepolia:1:mint',
      'base-sepolia:3:mint',
      'base-sepolia:4:approve',
      'base-sepolia:4:supply',
    ]);
    const started = startAll(i);
    const action = nextAction(started);
    expect(action.type).toBe('operation');
    if (action.type !== 'operation') return;
    expect(action.units.map((u) => `${u.step.index}:${u.spec.kind}`)).toEqual(['0:withdraw', '1:approve', '1:burn']);
    // both steps of the source's operation were started before it is signed
    expect(started.executionPlan!.steps.slice(0, 2).map((s) => s.status)).toEqual(['executing', 'executing']);
    expect(started.executionPlan!.steps[2]!.status).toBe('pending');
  });

  test('behavior: a signed operation records each call with the bundle hash and is resumed, never re-sent', () => {
    const i = startAll(executingIntent(bridgeThenDepositPlan(), { 'arbitrum-sepolia': '7702', 'base-sepolia': '7702' }));
    const action = nextAction(i);
    if (action.type !== 'operation') throw new Error(`expected an operation, got ${action.type}`);
    const calls = action.units.map((u) => ({ step: u.step.index, kind: u.spec.kind, main: u.spec.main }));
    const signed = transition(i, { type: 'opSigned', calls, tx: { chain: 'arbitrum-sepolia', txHash: bundle, raw: '0x02', userOpHash: opHash } }, at);
    const records = signed.results!.transactions as SubTxRecord[];
    expect(records.map((r) => [r.kind, r.txHash, r.operation, r.status])).toEqual([
      ['approve', bundle, opHash, 'signed'],
      ['burn', bundle, opHash, 'signed'],
    ]);
    expect(signed.executionPlan!.steps[0]!.txHash).toBe(bundle);
    const resumed = nextAction(signed);
    expect(resumed).toMatchObject({ type: 'operation', record: { txHash: bundle } });
    if (resumed.type === 'operation') expect(resumed.units.map((u) => u.spec.kind)).toEqual(['approve', 'burn']);

    // mined: both confirmed, the bundle's gas shared (100 → 50 + 50), then the step finishes
    const mined = transition(
      signed,
      { type: 'opMined', calls, receipt: { txHash: bundle, status: 'success', gasUsed: 101n, gasCostUsd: 0.2 }, failedCall: 0 },
      at,
    );
    const done = mined.results!.transactions as SubTxRecord[];
    expect(done.map((r) => [r.status, r.gasUsed])).toEqual([
      ['confirmed', '51'],
      ['confirmed', '50'],
    ]);
    expect(mined.results!.totalGasUsed).toBe('101');
    expect(mined.results!.totalGasCostUsd).toBeCloseTo(0.2, 9);
    // the bridge's mint goes with the deposit on base-sepolia: that step starts before their operation
    expect(nextAction(mined)).toMatchObject({ type: 'start-step', step: { index: 1 } });
    const destination = nextAction(startAll(mined));
    if (destination.type !== 'operation') throw new Error(`expected an operation, got ${destination.type}`);
    expect(destination.units.map((u) => `${u.step.index}:${u.spec.kind}`)).toEqual(['0:mint', '1:approve', '1:supply']);
  });

  test('behavior: the destination operation carries the mint with the deposit; each mint gets what it delivered', () => {
    const results = withOperationSigned(
      { completedSteps: 0, transactions: [], totalGasUsed: '0', totalGasCostUsd: 0, finalAmount: '0', apy: 4 },
      [
        { step: 1, kind: 'mint', main: false, type: 'bridge' },
        { step: 3, kind: 'mint', main: false, type: 'bridge' },
        { step: 4, kind: 'approve', main: false, type: 'deposit' },
        { step: 4, kind: 'supply', main: true, type: 'deposit' },
      ],
      { chain: 'base-sepolia', txHash: bundle, raw: '0x02', userOpHash: opHash },
      at.toISOString(),
    );
    const mined = withOperationMined(
      results,
      [],
      { txHash: bundle, status: 'success', gasUsed: 400n, gasCostUsd: 0.4, mintedEach: [49_990_000n, 50_000_000n] },
      0,
    );
    const minted = (mined.transactions as SubTxRecord[]).filter((r) => r.kind === 'mint').map((r) => r.minted);
    expect(minted).toEqual(['49990000', '50000000']);
  });

  test('error: a failed operation reverts every call (the failing one carrying the gas, the others rolled back), and the calls before the failing step run again without it', () => {
    const i = startAll(executingIntent(bridgeThenDepositPlan(), { 'arbitrum-sepolia': 'plain', 'base-sepolia': '7702' }));
    // the source runs plain: approve and burn confirmed, then mint + approve + supply go into one operation on base-sepolia
    const plainDone = (kind: 'approve' | 'burn', n: number): SubTxRecord => ({
      type: 'bridge',
      kind,
      step: 0,
      chain: 'arbitrum-sepolia',
      txHash: `0x${String(n).padStart(64, '0')}`,
      raw: '0x01',
      status: 'confirmed',
    });
    let intent: Intent = { ...i, results: { ...i.results!, transactions: [plainDone('approve', 1), plainDone('burn', 2)] } };
    intent = startAll(intent);
    const action = nextAction(intent);
    if (action.type !== 'operation') throw new Error(`expected an operation, got ${action.type}`);
    expect(action.units.map((u) => `${u.step.index}:${u.spec.kind}`)).toEqual(['0:mint', '1:approve', '1:supply']);
    const calls = action.units.map((u) => ({ step: u.step.index, kind: u.spec.kind, main: u.spec.main }));
    intent = transition(intent, { type: 'opSigned', calls, tx: { chain: 'base-sepolia', txHash: bundle, raw: '0x02', userOpHash: opHash } }, at);
    intent = transition(intent, { type: 'opMined', calls, receipt: { txHash: bundle, status: 'reverted', gasUsed: 90n, gasCostUsd: 0.09 }, failedCall: 2 }, at);
    const records = intent.results!.transactions as SubTxRecord[];
    expect(records.filter((r) => r.chain === 'base-sepolia').map((r) => [r.step, r.kind, r.status, r.gasUsed, r.rolledBack])).toEqual([
      [0, 'mint', 'reverted', '0', true],
      [1, 'approve', 'reverted', '0', true],
      [1, 'supply', 'reverted', '90', undefined],
    ]);
    // the mint runs again, alone, before the deposit fails
    const again = nextAction(intent);
    expect(again.type).toBe('operation');
    if (again.type === 'operation') expect(again.units.map((u) => `${u.step.index}:${u.spec.kind}`)).toEqual(['0:mint']);
    // once the mint is confirmed and its step finished, the deposit's reverted call is the failure
    intent = transition(intent, { type: 'opSigned', calls: [calls[0]!], tx: { chain: 'base-sepolia', txHash: opHash, raw: '0x03', userOpHash: bundle } }, at);
    intent = transition(
      intent,
      { type: 'opMined', calls: [calls[0]!], receipt: { txHash: opHash, status: 'success', gasUsed: 10n, gasCostUsd: 0 }, failedCall: 0 },
      at,
    );
    expect(nextAction(intent)).toMatchObject({ type: 'finish-step', step: { index: 0 } });
    const finished = {
      ...intent,
      executionPlan: {
        ...intent.executionPlan!,
        steps: intent.executionPlan!.steps.map((s: Step) => (s.index === 0 ? { ...s, status: 'completed' as const } : s)),
      },
    };
    expect(nextAction(finished)).toMatchObject({ type: 'reverted', step: { index: 1 }, record: { kind: 'supply' } });
  });
});
