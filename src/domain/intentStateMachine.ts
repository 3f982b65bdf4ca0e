import { ServiceError } from './errors/base';
import type { ExecutionPlan, Intent, IntentError, IntentPolicy, IntentResults, IntentStatus, Step } from './intent';
import { emptyResults } from './intent';

/** What moves an intent (docs/architecture.md, "The intent engine"); each event has exactly one target state. */
export type IntentEvent =
  | { type: 'plan' }
  | { type: 'execute'; plan: ExecutionPlan; amount: string; apy?: number; policy?: IntentPolicy }
  | { type: 'progress'; step?: Step; results?: IntentResults }
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

/** The fields an event changes, besides status, version and updatedAt. */
function patch(intent: Intent, event: IntentEvent, now: string): Partial<Intent> {
  switch (event.type) {
    case 'plan':
      return {};
    case 'execute':
      return { executionPlan: event.plan, amount: event.amount, results: emptyResults(event.apy), ...(event.policy && { policy: event.policy }) };
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
