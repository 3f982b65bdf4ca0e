import { ServiceError } from '../../domain/errors/base';
import type { Intent, Step } from '../../domain/intent';
import { subTransactions, type SubTxSpec } from '../stepRequests';
import { failedOnChain, findSubTx, stepRecords, type SubTxRecord } from '../../domain/txRecords';
import { executionOrder, modelOf, unitsOfOperation, type ExecUnit } from './operations';

/** The next unit of work of an executing intent. */
export type NextAction =
  /** Mark the step executing. */
  | { type: 'start-step'; step: Step }
  /** Send this sub-transaction, or, when `record` exists, resume it from its receipt (never signing again). */
  | { type: 'sub-tx'; step: Step; spec: SubTxSpec; record?: SubTxRecord }
  /**
   * On a `7702` chain: send these calls (one or more steps' sub-transactions on one chain) as one user
   * operation, or, when `record` exists, resume that operation's bundle from its receipt (never signing again).
   */
  | { type: 'operation'; units: ExecUnit[]; record?: SubTxRecord }
  /** A persisted receipt reverted but the failure was not recorded: record it now. */
  | { type: 'reverted'; step: Step; record: SubTxRecord }
  /** Every sub-transaction confirmed: mark the step completed (the intent too when it is the last). */
  | { type: 'finish-step'; step: Step }
  /** Nothing left to send (a plan without steps): complete the intent. */
  | { type: 'complete' };

const confirmed = (intent: Intent, step: Step, spec: SubTxSpec): boolean => findSubTx(intent.results, step.index, spec.kind)?.status === 'confirmed';

/** The unit's record, unless it was rolled back with a failed operation (then it is to be sent again). */
function liveRecord(intent: Intent, u: ExecUnit): SubTxRecord | undefined {
  const record = findSubTx(intent.results, u.step.index, u.spec.kind);
  return record?.rolledBack ? undefined : record;
}

/**
 * The run of unsent units on one `7702` chain starting at `order[from]`: the
 * calls that go into one user operation. It ends at another chain, at a unit
 * already signed, or at a step that has a reverted call (a failed operation
 * is sent again without its failing step, which then fails alone).
 */
function operationRun(intent: Intent, order: readonly ExecUnit[], from: number): ExecUnit[] {
  const chain = order[from]!.spec.chain;
  const run: ExecUnit[] = [];
  for (let i = from; i < order.length; i++) {
    const u = order[i]!;
    if (u.spec.chain !== chain || liveRecord(intent, u) !== undefined) break;
    if (stepRecords(intent.results, u.step.index).some(failedOnChain)) break;
    run.push(u);
  }
  return run;
}

/**
 * Where an executing intent stands, read from its persisted record alone.
 * Pure, so recovery and normal execution take the same path. A step whose
 * records are all confirmed awaits `stepCompleted`. Otherwise, in execution
 * order (executionOrder: the plan's, or grouped by chain when a chain runs
 * user operations), the first sub-transaction without a confirmed receipt:
 * its step still `pending` awaits `stepStarted`; a step with a reverted
 * record awaits its failure; a kind with no record awaits `txSigned` (on a
 * `7702` chain, `opSigned` of the run it starts); a `signed` record
 * (`txSigned`, `txReplaced`, `txObserved`, `opSigned`, `opReplaced`) awaits
 * its receipt.
 */
export function nextAction(intent: Intent): NextAction {
  const steps = intent.executionPlan?.steps ?? [];
  const open = steps.find((s) => s.status !== 'completed');
  if (open === undefined) return { type: 'complete' };
  if (open.status === 'failed') {
    throw new ServiceError('INTERNAL_ERROR', `Step ${open.index + 1} failed but the intent is still executing`, { details: { intentId: intent.id } });
  }
  const done = steps.find((s) => s.status === 'executing' && subTransactions(s).every((spec) => confirmed(intent, s, spec)));
  if (done !== undefined) return { type: 'finish-step', step: done };

  const order = executionOrder(intent);
  for (const [i, { step, spec }] of order.entries()) {
    if (step.status === 'completed' || confirmed(intent, step, spec)) continue;
    const reverted = stepRecords(intent.results, step.index).find(failedOnChain);
    if (reverted !== undefined) return { type: 'reverted', step, record: reverted };
    if (step.status === 'pending') return { type: 'start-step', step };
    const record = liveRecord(intent, { step, spec });
    if (record?.operation !== undefined) return { type: 'operation', units: unitsOfOperation(intent, record), record };
    if (record !== undefined) return { type: 'sub-tx', step, spec, record };
    if (modelOf(intent, spec.chain) !== '7702') return { type: 'sub-tx', step, spec };
    const units = operationRun(intent, order, i);
    const pending = units.find((u) => u.step.status === 'pending');
    if (pending !== undefined) return { type: 'start-step', step: pending.step };
    return { type: 'operation', units };
  }
  return { type: 'finish-step', step: open };
}
