import { ServiceError } from '../../../src/domain/errors/base';
import { INTENT_STATUSES, type Intent, type IntentStatus } from '../../../src/domain/intent';
import {
  FINAL_STATUSES,
  INTENT_MACHINE,
  canTransition,
  isFinal,
  transition,
  type IntentEvent,
  type IntentEventType,
} from '../../../src/domain/intentStateMachine';
import { bridgeThenDepositPlan, pendingIntent } from './intentFixture';

const t0 = new Date('2025-01-01T00:00:01.000Z');
const t1 = new Date('2025-01-01T00:00:02.000Z');
const t2 = new Date('2025-01-01T00:00:03.000Z');

const results = {
  completedSteps: 2,
  transactions: [
    { type: 'bridge' as const, txHash: '0xaa', chain: 'arbitrum-sepolia' as const, gasUsed: '100', gasCostUsd: 0.01 },
    { type: 'deposit' as const, txHash: '0xbb', chain: 'base-sepolia' as const, gasUsed: '200', gasCostUsd: 0.02 },
  ],
  totalGasUsed: '300',
  totalGasCostUsd: 0.03,
  finalAmount: '99.9',
  apy: 4.2,
};

const sampleEvent: Record<IntentEventType, IntentEvent> = {
  plan: { type: 'plan' },
  execute: { type: 'execute', plan: bridgeThenDepositPlan(), amount: '99.9', apy: 4.2 },
  progress: { type: 'progress', results: { ...results, completedSteps: 1 } },
  complete: { type: 'complete', results },
  fail: { type: 'fail', error: { code: 'BRIDGE_FAILED', message: 'bridge reverted', details: {} }, failedStep: 0 },
  cancel: { type: 'cancel' },
  stepStarted: { type: 'stepStarted', step: 0 },
  txSigned: { type: 'txSigned', step: 0, tx: { kind: 'approve', chain: 'arbitrum-sepolia', txHash: '0xa1', raw: '0xf1' }, main: false },
  txReplaced: { type: 'txReplaced', step: 0, tx: { kind: 'approve', chain: 'arbitrum-sepolia', txHash: '0xa2', raw: '0xf2' }, main: false },
  txObserved: { type: 'txObserved', step: 0, kind: 'mint', chain: 'base-sepolia', txHash: '0xa3' },
  txConfirmed: { type: 'txConfirmed', step: 0, receipt: { txHash: '0xa2', status: 'success', gasUsed: 1n, gasCostUsd: 0 }, main: false },
  txReverted: { type: 'txReverted', step: 0, receipt: { txHash: '0xa2', status: 'reverted', gasUsed: 1n, gasCostUsd: 0 }, main: false },
  retryNoted: { type: 'retryNoted', step: 0, attempts: 1, error: { code: 'NETWORK_ERROR', message: 'down' }, nextAttemptAt: t2.toISOString() },
  revokeSigned: { type: 'revokeSigned', step: 0, tx: { kind: 'revoke', chain: 'arbitrum-sepolia', txHash: '0xa4', raw: '0xf4' } },
  revokeMined: { type: 'revokeMined', step: 0, receipt: { txHash: '0xa4', status: 'success', gasUsed: 1n, gasCostUsd: 0 } },
  stepCompleted: { type: 'stepCompleted', step: { ...bridgeThenDepositPlan().steps[0]!, status: 'completed' }, results: { ...results, completedSteps: 1 } },
  opSigned: {
    type: 'opSigned',
    calls: [{ step: 0, kind: 'approve', main: false }],
    tx: { chain: 'arbitrum-sepolia', txHash: '0xb1', raw: '0xf5', userOpHash: '0xc1' },
  },
  opReplaced: {
    type: 'opReplaced',
    calls: [{ step: 0, kind: 'approve', main: false }],
    bundleHash: '0xb1',
    tx: { kind: 'approve', chain: 'arbitrum-sepolia', txHash: '0xb2', raw: '0xf6' },
  },
  opMined: {
    type: 'opMined',
    calls: [{ step: 0, kind: 'approve', main: false }],
    receipt: { txHash: '0xb2', status: 'success', gasUsed: 1n, gasCostUsd: 0 },
    failedCall: 0,
  },
};

/** An intent in `status`, reached through legal transitions. */
function intentIn(status: IntentStatus): Intent {
  const pending = pendingIntent();
  if (status === 'pending') return pending;
  if (status === 'cancelled') return transition(pending, sampleEvent.cancel, t0);
  const planning = transition(pending, sampleEvent.plan, t0);
  if (status === 'planning') return planning;
  if (status === 'failed') return transition(planning, sampleEvent.fail, t1);
  const executing = transition(planning, sampleEvent.execute, t1);
  if (status === 'executing') return executing;
  return transition(executing, sampleEvent.complete, t2);
}

describe('intent state machine', () => {
  test('behavior: the table allows exactly the transitions of docs/architecture.md, "The intent engine"', () => {
    const allowed = INTENT_STATUSES.flatMap((from) => INTENT_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`));
    expect(allowed.sort()).toEqual(
      [
        'pending->planning',
        'planning->executing',
        'planning->failed',
        'executing->executing',
        'executing->completed',
        'executing->failed',
        'pending->cancelled',
        'planning->cancelled',
        'executing->cancelled',
      ].sort(),
    );
  });

  test('behavior: completed, failed and cancelled are final and no event leaves them', () => {
    expect(FINAL_STATUSES).toEqual(['completed', 'failed', 'cancelled']);
    for (const status of INTENT_STATUSES) {
      const leaves = Object.values(INTENT_MACHINE).some((rule) => rule.from.includes(status));
      expect(isFinal(status)).toBe(!leaves);
    }
  });

  test('behavior: the happy path pending → planning → executing → completed bumps version and updatedAt', () => {
    const pending = pendingIntent();
    const planning = transition(pending, { type: 'plan' }, t0);
    expect(planning).toMatchObject({ status: 'planning', version: 1, updatedAt: t0.toISOString(), executionPlan: null });
    expect(planning.results).toBeUndefined();

    const executing = transition(planning, sampleEvent.execute, t1);
    expect(executing).toMatchObject({ status: 'executing', version: 2, amount: '99.9', requestedAmount: '100' });
    expect(executing.executionPlan?.strategy).toBe('single-bridge');
    expect(executing.results).toEqual({ completedSteps: 0, transactions: [], totalGasUsed: '0', totalGasCostUsd: 0, finalAmount: '0', apy: 4.2 });

    const completed = transition(executing, sampleEvent.complete, t2);
    expect(completed).toMatchObject({ status: 'completed', version: 3, completedAt: t2.toISOString(), results });
    expect(completed.error).toBeUndefined();
  });

  test('behavior: transition returns a new intent and leaves its input unchanged', () => {
    const executing = intentIn('executing');
    const before = JSON.stringify(executing);
    const step = { ...bridgeThenDepositPlan().steps[0]!, status: 'executing' as const, txHash: '0xaa' };
    const next = transition(executing, { type: 'progress', step }, t2);
    expect(JSON.stringify(executing)).toBe(before);
    expect(next).not.toBe(executing);
    expect(next.executionPlan?.steps[0]).toMatchObject({ status: 'executing', txHash: '0xaa' });
  });

  test('behavior: executing → executing records step progress and keeps results when none are given', () => {
    const executing = transition(intentIn('executing'), sampleEvent.progress, t2);
    const step = { ...executing.executionPlan!.steps[1]!, status: 'executing' as const, startedAt: t2.toISOString() };
    const next = transition(executing, { type: 'progress', step }, t2);
    expect(next.status).toBe('executing');
    expect(next.version).toBe(executing.version + 1);
    expect(next.results?.completedSteps).toBe(1);
    expect(next.executionPlan?.steps.map((s) => s.status)).toEqual(['pending', 'executing']);
  });

  test('behavior: planning → failed fills error and leaves no plan or results', () => {
    const error = { code: 'INSUFFICIENT_FUNDS' as const, message: 'Not enough funds', details: { required: '100', available: '40' } };
    const failed = transition(intentIn('planning'), { type: 'fail', error }, t1);
    expect(failed).toMatchObject({ status: 'failed', error, executionPlan: null });
    expect(failed.results).toBeUndefined();
    expect(failed.completedAt).toBeUndefined();
  });

  test('behavior: executing → failed sets error and results.failedStep, keeping completedSteps', () => {
    const executing = transition(intentIn('executing'), sampleEvent.progress, t1);
    const failedStep = { ...executing.executionPlan!.steps[1]!, status: 'failed' as const };
    const failed = transition(
      executing,
      { type: 'fail', error: { code: 'DEPOSIT_FAILED', message: 'reverted', details: { txHash: '0xbb' } }, failedStep: 1, step: failedStep },
      t2,
    );
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('DEPOSIT_FAILED');
    expect(failed.results).toMatchObject({ completedSteps: 1, failedStep: 1 });
    expect(failed.executionPlan?.steps[1]?.status).toBe('failed');
  });

  test('behavior: executing → cancelled keeps results (what completed), puts back a started step that signed nothing, and records when', () => {
    const executing = transition(intentIn('executing'), sampleEvent.progress, t1);
    const requested = { ...executing, cancelRequestedAt: t1.toISOString() };
    const cancelled = transition(requested, { type: 'cancel', step: { ...executing.executionPlan!.steps[1]!, status: 'pending' } }, t2);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      completedAt: t2.toISOString(),
      cancelRequestedAt: t1.toISOString(),
      version: executing.version + 1,
    });
    expect(cancelled.results).toEqual(executing.results);
    expect(cancelled.error).toBeUndefined();
    expect(transition(intentIn('pending'), { type: 'cancel' }, t2)).toMatchObject({
      status: 'cancelled',
      executionPlan: null,
      cancelRequestedAt: t2.toISOString(),
    });
  });

  test('behavior: a ServiceError given as the failure is stored as plain {code, message, details}', () => {
    const err = new ServiceError('INSUFFICIENT_FUNDS', 'Not enough', { details: { required: '1' }, cause: new Error('x') });
    const failed = transition(intentIn('planning'), { type: 'fail', error: err }, t1);
    expect(failed.error).toEqual({ code: 'INSUFFICIENT_FUNDS', message: 'Not enough', details: { required: '1' } });
    expect(failed.error).not.toBeInstanceOf(Error);
  });

  describe('error: every illegal transition is rejected with INTERNAL_ERROR {from, to}', () => {
    const cases = INTENT_STATUSES.flatMap((from) =>
      (Object.keys(INTENT_MACHINE) as IntentEventType[]).filter((event) => !INTENT_MACHINE[event].from.includes(from)).map((event) => [from, event] as const),
    );

    test.each(cases)('error: %s does not accept %s', (from, event) => {
      const intent = intentIn(from);
      const attempt = (): Intent => transition(intent, sampleEvent[event], t2);
      expect(attempt).toThrow(ServiceError);
      expect(attempt).toThrow(
        expect.objectContaining({ code: 'INTERNAL_ERROR', details: expect.objectContaining({ from, to: INTENT_MACHINE[event].to, event }) }),
      );
    });

    test('error: the list of illegal cases covers both final states for every event', () => {
      for (const final of FINAL_STATUSES) {
        expect(cases.filter(([from]) => from === final)).toHaveLength(Object.keys(INTENT_MACHINE).length);
      }
    });
  });

  test('error: progress naming a step the plan does not have is rejected', () => {
    const executing = intentIn('executing');
    const ghost = { ...executing.executionPlan!.steps[0]!, index: 7 };
    expect(() => transition(executing, { type: 'progress', step: ghost }, t2)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
  });

  test('behavior: an intent persisted mid-execution (JSON round trip) restores and continues to completion', () => {
    const executing = intentIn('executing');
    const bridged = transition(
      executing,
      {
        type: 'progress',
        step: { ...executing.executionPlan!.steps[0]!, status: 'completed', txHash: '0xaa', gasUsed: '100', completedAt: t1.toISOString() },
        results: { ...results, completedSteps: 1, transactions: results.transactions.slice(0, 1), finalAmount: '0' },
      },
      t1,
    );

    const restored = JSON.parse(JSON.stringify(bridged)) as Intent;
    expect(restored).toEqual(bridged);

    const depositing = transition(restored, { type: 'progress', step: { ...restored.executionPlan!.steps[1]!, status: 'executing', txHash: '0xbb' } }, t2);
    const done = transition(depositing, { type: 'complete', results, step: { ...depositing.executionPlan!.steps[1]!, status: 'completed' } }, t2);
    expect(done).toMatchObject({ status: 'completed', version: bridged.version + 2, completedAt: t2.toISOString() });
    expect(done.executionPlan?.steps.map((s) => [s.status, s.txHash])).toEqual([
      ['completed', '0xaa'],
      ['completed', '0xbb'],
    ]);

    const restoredFinal = JSON.parse(JSON.stringify(done)) as Intent;
    expect(() => transition(restoredFinal, sampleEvent.progress, t2)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR' }));
  });
});
