import { ServiceError } from '../../domain/errors/base';
import type { Intent, Step } from '../../domain/intent';
import { subTransactions, type SubTxSpec } from '../stepRequests';
import { findSubTx, type SubTxRecord } from '../../domain/txRecords';

/** The next unit of work of an executing intent. */
export type NextAction =
  /** Mark the step executing. */
  | { type: 'start-step'; step: Step }
  /** Send this sub-transaction, or, when `record` exists, resume it from its receipt (never signing again). */
  | { type: 'sub-tx'; step: Step; spec: SubTxSpec; record?: SubTxRecord }
  /** A persisted receipt reverted but the failure was not recorded: record it now. */
  | { type: 'reverted'; step: Step; record: SubTxRecord }
  /** Every sub-transaction confirmed: mark the step completed (the intent too when it is the last). */
  | { type: 'finish-step'; step: Step }
  /** Nothing left to send (a plan without steps): complete the intent. */
  | { type: 'complete' };

/**
 * Where an executing intent stands, read from its persisted record alone: the
 * first step not completed, and in it the first sub-transaction without a
 * confirmed receipt. Pure, so recovery and normal execution take the same path.
 * What it reads is what the machine's execution events wrote: a step still
 * `pending` awaits `stepStarted`; a kind with no record awaits `txSigned`; a
 * `signed` record (`txSigned`, `txReplaced`, `txObserved`) awaits its receipt;
 * `confirmed` / `reverted` are `txConfirmed` / `txReverted`; a step whose
 * records are all confirmed awaits `stepCompleted`.
 */
export function nextAction(intent: Intent): NextAction {
  const steps = intent.executionPlan?.steps ?? [];
  const step = steps.find((s) => s.status !== 'completed');
  if (step === undefined) return { type: 'complete' };
  if (step.status === 'pending') return { type: 'start-step', step };
  if (step.status === 'failed') {
    throw new ServiceError('INTERNAL_ERROR', `Step ${step.index + 1} failed but the intent is still executing`, { details: { intentId: intent.id } });
  }
  for (const spec of subTransactions(step)) {
    const record = findSubTx(intent.results, step.index, spec.kind);
    if (record === undefined) return { type: 'sub-tx', step, spec };
    if (record.status === 'signed') return { type: 'sub-tx', step, spec, record };
    if (record.status === 'reverted') return { type: 'reverted', step, record };
  }
  return { type: 'finish-step', step };
}
