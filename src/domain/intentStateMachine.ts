import { ServiceError } from './errors/base';
import type { ExecutionPlan, Intent, IntentError, IntentPolicy, IntentResults, IntentStatus, Step } from './intent';
import { emptyResults } from './intent';
import {
  withObserved,
  withOperationMined,
  withOperationReplaced,
  withOperationSigned,
  withReceipt,
  withReplacement,
  withSigned,
  type OperationCall,
  type ReceiptFacts,
  type SignedFacts,
  type SignedOperationFacts,
  type TxKind,
} from './txRecords';
import type { AccountModel, ChainName } from './chains';
import type { Hex } from 'viem';

/**
 * The execution's events: each names one thing that happened to a step of an
 * executing intent, and its patch writes exactly that into the persisted
 * record (the step and `results.transactions`), which is all the executor's
 * nextAction reads back. `step` is the step's index; `main` says the
 * transaction is the one that moves the funds, whose hash becomes the step's.
 */
export type ExecutionEvent =
  /** The step begins: pending → executing, `startedAt` now. */
  | { type: 'stepStarted'; step: number }
  /** A sub-transaction's bytes were signed: recorded `signed` (hash, raw bytes, sentAt) before they are broadcast. */
  | { type: 'txSigned'; step: number; tx: SignedFacts; main: boolean }
  /** A signed transaction was signed again at its nonce with higher fees: the new bytes lead, the old hash is kept in `replaced`. */
  | { type: 'txReplaced'; step: number; tx: SignedFacts; main: boolean }
  /** Someone else sent the sub-transaction (a mint relayed for our burn): recorded like a signed one, with no bytes of ours. */
  | { type: 'txObserved'; step: number; kind: TxKind; chain: ChainName; txHash: Hex }
  /** A receipt with status success: the record `confirmed`; a retry note on the step is cleared. */
  | { type: 'txConfirmed'; step: number; receipt: ReceiptFacts; main: boolean }
  /** A receipt with status reverted: the record `reverted` (the step's failure follows as `fail`). */
  | { type: 'txReverted'; step: number; receipt: ReceiptFacts; main: boolean }
  /** A try met transient trouble: the step shows its tries, the trouble and when it tries again. */
  | { type: 'retryNoted'; step: number; attempts: number; error: { code: string; message: string }; nextAttemptAt: string }
  /** The revoke a failing step owes (its approve confirmed, the spend not) was signed. */
  | { type: 'revokeSigned'; step: number; tx: SignedFacts }
  /** The revoke's receipt, whatever its status: the step fails all the same. */
  | { type: 'revokeMined'; step: number; receipt: ReceiptFacts }
  /** Every sub-transaction of the step confirmed: the step as completed (gas, main hash, fee and amount settled) and the results' counts. */
  | { type: 'stepCompleted'; step: Step; results: IntentResults }
  /** A user operation (the calls of one or more steps on one `7702` chain) was signed and bundled: one `signed` record per call, all with the bundle's hash. */
  | { type: 'opSigned'; calls: OperationCall[]; tx: SignedOperationFacts }
  /** The operation's bundle was signed again at its nonce with higher fees: every call's record follows the new bytes. */
  | { type: 'opReplaced'; calls: OperationCall[]; bundleHash: Hex; tx: SignedFacts }
  /**
   * The bundle's receipt: the operation succeeded (every call `confirmed`, the gas shared) or failed at
   * `failedCall` (that call `reverted`; the other calls' records go, to be sent again without the failing step).
   */
  | { type: 'opMined'; calls: OperationCall[]; receipt: ReceiptFacts; failedCall: number };

export type ExecutionEventType = ExecutionEvent['type'];

/** What moves an intent (docs/architecture.md, "The intent engine"); each event has exactly one target state. */
export type IntentEvent =
  | { type: 'plan' }
  | { type: 'execute'; plan: ExecutionPlan; amount: string; apy?: number; policy?: IntentPolicy; accountModels?: Partial<Record<ChainName, AccountModel>> }
  /** A step and results written whole (an imported or repaired record); the executor names what happens instead (ExecutionEvent). */
  | { type: 'progress'; step?: Step; results?: IntentResults }
  | ExecutionEvent
  /** `amount`: what the intent finally supplied, when that differs from the plan (a mint kept back less fee than planned). */
  | { type: 'complete'; results: IntentResults; step?: Step; amount?: string }
  | { type: 'fail'; error: IntentError; failedStep?: number; results?: IntentResults; step?: Step }
  /**
   * Ends the intent where it stands: nothing more is signed; `step` puts back a step that had started but signed nothing;
   * `error` says where a rebalance's funds were left (INTENT_CANCELLED, details.idle).
   */
  | { type: 'cancel'; step?: Step; error?: IntentError };

export type IntentEventType = IntentEvent['type'];

/** The transition table as data: for each event, the states it may leave and the state it enters. */
export const INTENT_MACHINE: Readonly<Record<IntentEventType, { from: readonly IntentStatus[]; to: IntentStatus }>> = {
  plan: { from: ['pending'], to: 'planning' },
  execute: { from: ['planning'], to: 'executing' },
  progress: { from: ['executing'], to: 'executing' },
  stepStarted: { from: ['executing'], to: 'executing' },
  txSigned: { from: ['executing'], to: 'executing' },
  txReplaced: { from: ['executing'], to: 'executing' },
  txObserved: { from: ['executing'], to: 'executing' },
  txConfirmed: { from: ['executing'], to: 'executing' },
  txReverted: { from: ['executing'], to: 'executing' },
  retryNoted: { from: ['executing'], to: 'executing' },
  revokeSigned: { from: ['executing'], to: 'executing' },
  revokeMined: { from: ['executing'], to: 'executing' },
  stepCompleted: { from: ['executing'], to: 'executing' },
  opSigned: { from: ['executing'], to: 'executing' },
  opReplaced: { from: ['executing'], to: 'executing' },
  opMined: { from: ['executing'], to: 'executing' },
  complete: { from: ['executing'], to: 'completed' },
  fail: { from: ['planning', 'executing'], to: 'failed' },
  cancel: { from: ['pending', 'planning', 'executing'], to: 'cancelled' },
};

export { FINAL_STATUSES, isFinal } from './intent';

/** Whether the table allows `from` → `to` by some event. */
export function canTransition(from: IntentStatus, to: IntentStatus): boolean {
  return Object.values(INTENT_MACHINE).some((rule) => rule.to === to && rule.from.includes(from));
}

/** A programming error: the engine tried a move the table forbids. */
export const illegalTransition = (intentId: string, from: IntentStatus, to: IntentStatus, event: IntentEventType): ServiceError =>
  new ServiceError('INTERNAL_ERROR', `Illegal intent transition ${from} -> ${to} (${event}) for ${intentId}`, {
    details: { intentId, from, to, event },
  });

/** Replaces the step at `step.index` in the plan; a step the plan does not have is a programming error. */
function withStep(intent: Intent, step: Step | undefined, event: IntentEventType): ExecutionPlan | null {
  if (step === undefined) return intent.executionPlan;
  const plan = intent.executionPlan;
  if (plan === null || step.index < 0 || step.index >= plan.steps.length) {
    throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id} has no step ${step.index}`, {
      details: { intentId: intent.id, stepIndex: step.index, event },
    });
  }
  return { ...plan, steps: plan.steps.map((s) => (s.index === step.index ? step : s)) };
}

/** The step at `index`, which an execution event requires to be in `status`; anything else is a programming error. */
function stepIn(intent: Intent, index: number, status: Step['status'], event: IntentEventType): Step {
  const step = intent.executionPlan?.steps[index];
  if (step?.status !== status) {
    throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id}: ${event} needs step ${index} ${status}, found ${step?.status ?? 'none'}`, {
      details: { intentId: intent.id, stepIndex: index, event, stepStatus: step?.status ?? null },
    });
  }
  return step;
}

/** The step without the fields of a retry in progress (attempts, lastError, nextAttemptAt). */
function settled(step: Step): Step {
  const { attempts: _a, lastError: _l, nextAttemptAt: _n, ...rest } = step;
  return rest as Step;
}

/** The patch of an execution event: the step (changed or not) and the results. */
function executionPatch(intent: Intent, event: ExecutionEvent, now: string): Partial<Intent> {
  const results = intent.results ?? emptyResults();
  const patched = (step: Step, nextResults: IntentResults = results): Partial<Intent> => ({
    executionPlan: withStep(intent, step, event.type),
    results: nextResults,
  });
  switch (event.type) {
    case 'stepStarted': {
      const step = stepIn(intent, event.step, 'pending', event.type);
      return patched({ ...step, status: 'executing', startedAt: now }, intent.results);
    }
    case 'txSigned':
    case 'revokeSigned': {
      const step = stepIn(intent, event.step, 'executing', event.type);
      const main = event.type === 'txSigned' && event.main;
      return patched(main ? { ...step, txHash: event.tx.txHash } : step, withSigned(results, step.type, step.index, event.tx, now));
    }
    case 'txReplaced': {
      const step = stepIn(intent, event.step, 'executing', event.type);
      return patched(event.main ? { ...step, txHash: event.tx.txHash } : step, withReplacement(results, step.index, event.tx.kind, event.tx, now));
    }
    case 'txObserved': {
      const step = stepIn(intent, event.step, 'executing', event.type);
      return patched(step, withObserved(results, step, event, event.txHash));
    }
    case 'txConfirmed':
    case 'txReverted':
    case 'revokeMined': {
      const step = stepIn(intent, event.step, 'executing', event.type);
      const outcome = event.receipt.status === 'success' ? 'txConfirmed' : 'txReverted';
      if (event.type !== 'revokeMined' && event.type !== outcome) {
        throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id}: ${event.type} carries a ${event.receipt.status} receipt`, {
          details: { intentId: intent.id, stepIndex: event.step, event: event.type },
        });
      }
      const main = event.type !== 'revokeMined' && event.main;
      return patched({ ...settled(step), ...(main && { txHash: event.receipt.txHash }) }, withReceipt(results, event.receipt));
    }
    case 'retryNoted': {
      const step = stepIn(intent, event.step, 'executing', event.type);
      return patched({ ...step, attempts: event.attempts, lastError: event.error, nextAttemptAt: event.nextAttemptAt }, intent.results);
    }
    case 'opSigned':
    case 'opReplaced':
    case 'opMined':
      return operationPatch(intent, event, results, now);
    case 'stepCompleted':
      stepIn(intent, event.step.index, 'executing', event.type);
      if (event.step.status !== 'completed') {
        throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id}: stepCompleted with a step ${event.step.status}`, {
          details: { intentId: intent.id, stepIndex: event.step.index, event: event.type },
        });
      }
      return patched(event.step, event.results);
  }
}

/** The steps an operation's calls belong to, each required `executing`, in order. */
function stepsOfCalls(intent: Intent, calls: readonly OperationCall[], event: IntentEventType): Step[] {
  if (calls.length === 0) throw new ServiceError('INTERNAL_ERROR', `Intent ${intent.id}: ${event} with no calls`, { details: { intentId: intent.id, event } });
  const indexes = [...new Set(calls.map((c) => c.step))];
  return indexes.map((i) => stepIn(intent, i, 'executing', event));
}

/** The patch of an operation's event: every step it touches (their main hash, a retry note cleared) and the records of its calls. */
function operationPatch(
  intent: Intent,
  event: Extract<ExecutionEvent, { type: 'opSigned' | 'opReplaced' | 'opMined' }>,
  results: IntentResults,
  now: string,
): Partial<Intent> {
  const steps = stepsOfCalls(intent, event.calls, event.type);
  const isMain = (s: Step): boolean => event.calls.some((c) => c.step === s.index && c.main);
  let next: IntentResults;
  let hash: Hex;
  let clearRetry = false;
  switch (event.type) {
    case 'opSigned':
      next = withOperationSigned(
        results,
        event.calls.map((c) => ({ ...c, type: intent.executionPlan!.steps[c.step]!.type })),
        event.tx,
        now,
      );
      hash = event.tx.txHash;
      break;
    case 'opReplaced':
      next = withOperationReplaced(results, event.bundleHash, event.tx, now);
      hash = event.tx.txHash;
      break;
    case 'opMined':
      next = withOperationMined(results, event.calls, event.receipt, event.failedCall);
      hash = event.receipt.txHash;
      clearRetry = true;
      break;
  }
  const changed = steps.map((s) => {
    const base = clearRetry ? settled(s) : s;
    return isMain(s) ? { ...base, txHash: hash } : base;
  });
  const plan = intent.executionPlan!;
  return {
    executionPlan: { ...plan, steps: plan.steps.map((s) => changed.find((c) => c.index === s.index) ?? s) },
    results: next,
  };
}

/** The fields an event changes, besides status, version and updatedAt. */
function patch(intent: Intent, event: IntentEvent, now: string): Partial<Intent> {
  switch (event.type) {
    case 'stepStarted':
    case 'txSigned':
    case 'txReplaced':
    case 'txObserved':
    case 'txConfirmed':
    case 'txReverted':
    case 'retryNoted':
    case 'revokeSigned':
    case 'revokeMined':
    case 'stepCompleted':
    case 'opSigned':
    case 'opReplaced':
    case 'opMined':
      return executionPatch(intent, event, now);
    case 'plan':
      return {};
    case 'execute':
      return {
        executionPlan: event.plan,
        amount: event.amount,
        results: emptyResults(event.apy),
        ...(event.policy && { policy: event.policy }),
        ...(event.accountModels && { accountModels: event.accountModels }),
      };
    case 'progress':
      return { executionPlan: withStep(intent, event.step, event.type), results: event.results ?? intent.results };
    case 'complete':
      return {
        executionPlan: withStep(intent, event.step, event.type),
        results: event.results,
        completedAt: now,
        ...(event.amount !== undefined && { amount: event.amount }),
      };
    case 'fail': {
      const error = { code: event.error.code, message: event.error.message, details: event.error.details };
      if (intent.status === 'planning') return { error };
      const results = event.results ?? intent.results ?? emptyResults();
      return {
        error,
        executionPlan: withStep(intent, event.step, event.type),
        results: event.failedStep === undefined ? results : { ...results, failedStep: event.failedStep },
      };
    }
    case 'cancel':
      // `results` (when execution had started) say what completed: funds stay where the last completed step left them.
      return {
        executionPlan: withStep(intent, event.step, event.type),
        completedAt: now,
        cancelRequestedAt: intent.cancelRequestedAt ?? now,
        ...(event.error && { error: event.error }),
      };
  }
}

/**
 * Applies `event` to `intent` and returns the new intent (the input is not
 * changed): version + 1, `updatedAt` = `now`. Throws INTERNAL_ERROR with
 * `{from, to}` when the table does not allow the move; final states allow none.
 */
export function transition(intent: Intent, event: IntentEvent, now: Date): Intent {
  const rule = INTENT_MACHINE[event.type];
  if (!rule.from.includes(intent.status)) throw illegalTransition(intent.id, intent.status, rule.to, event.type);
  const at = now.toISOString();
  return { ...intent, ...patch(intent, event, at), status: rule.to, version: intent.version + 1, updatedAt: at };
}
