import type { Intent } from '../../../src/domain/intent';
import { nextAction } from '../../../src/engine/executor/nextAction';
import { bridgeThenDepositPlan, pendingIntent } from './intentFixture';

const raw = '0x01';
const hash = (n: number) => `0x${String(n).padStart(64, '0')}`;

/** An executing single-bridge lend whose bridge step is at `status` with these sub-transaction records. */
function executing(status: 'pending' | 'executing', records: { kind: string; status: string }[]): Intent {
  const plan = bridgeThenDepositPlan();
  plan.steps[0] = { ...plan.steps[0]!, status };
  return pendingIntent({
    status: 'executing',
    executionPlan: plan,
    results: {
      completedSteps: 0,
      transactions: records.map((r, n) =>
        Object.assign({ type: 'bridge' as const, txHash: hash(n), chain: 'arbitrum-sepolia' as const }, { step: 0, raw, ...r }),
      ),
      totalGasUsed: '0',
      totalGasCostUsd: 0,
      finalAmount: '0',
      apy: 4.2,
    },
  });
}

describe('executor: nextAction', () => {
  test('behavior: a pending step is started first', () => {
    expect(nextAction(executing('pending', []))).toMatchObject({ type: 'start-step', step: { index: 0 } });
  });

  test('behavior: the first sub-transaction without a record is sent next', () => {
    expect(nextAction(executing('executing', [{ kind: 'approve', status: 'confirmed' }]))).toMatchObject({
      type: 'sub-tx',
      spec: { kind: 'burn', main: true },
    });
  });

  test('behavior: a signed record is resumed (carried in the action), never re-sent', () => {
    const action = nextAction(
      executing('executing', [
        { kind: 'approve', status: 'confirmed' },
        { kind: 'burn', status: 'signed' },
      ]),
    );
    expect(action).toMatchObject({ type: 'sub-tx', spec: { kind: 'burn' }, record: { txHash: hash(1), raw } });
  });

  test('behavior: the mint goes to the destination chain, signed by the relayer', () => {
    const action = nextAction(
      executing('executing', [
        { kind: 'approve', status: 'confirmed' },
        { kind: 'burn', status: 'confirmed' },
      ]),
    );
    expect(action).toMatchObject({ type: 'sub-tx', spec: { kind: 'mint', chain: 'base-sepolia', signer: 'relayer' } });
  });

  test('behavior: all confirmed → finish the step; a reverted record → record the failure', () => {
    const all = [
      { kind: 'approve', status: 'confirmed' },
      { kind: 'burn', status: 'confirmed' },
      { kind: 'mint', status: 'confirmed' },
    ];
    expect(nextAction(executing('executing', all))).toMatchObject({ type: 'finish-step', step: { index: 0 } });
    expect(nextAction(executing('executing', [{ kind: 'approve', status: 'reverted' }]))).toMatchObject({ type: 'reverted', record: { kind: 'approve' } });
  });

  test('behavior: with the bridge completed, the deposit step is next', () => {
    const i = executing('executing', []);
    i.executionPlan!.steps[0] = { ...i.executionPlan!.steps[0]!, status: 'completed' };
    expect(nextAction(i)).toMatchObject({ type: 'start-step', step: { index: 1, type: 'deposit' } });
  });
});
