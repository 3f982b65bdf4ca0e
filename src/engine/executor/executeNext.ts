import { emptyResults, type Intent, type Step } from '../../domain/intent';
import type { UnitContext } from '../unitContext';
import { nextAction } from './nextAction';
import { failStep, runSubTx } from './runSubTx';
import { runOperation } from './runOperation';
import { stepFailed } from './stepFailure';
import { completion, finalAmountOf, finishStep } from './finishStep';
import { mintsOwed, settleOwedMints } from './owedMints';
import { refuseStep, type StepFacts } from '../../domain/policy';
import { policyViolation } from '../../domain/errors/policy';
import { cancelPoint } from '../cancelRequest';
import { cancelledWithIdleFunds } from './rebalanceIdle';

/** What the policy checks of a step: the intent's action, every chain the step touches, its protocol. */
function stepFacts(intent: Intent, step: Step): StepFacts {
  if (step.type === 'bridge') return { action: intent.action, chains: [step.from, step.to] };
  return { action: intent.action, chains: [step.chain], protocol: step.protocol };
}

/**
 * One unit of execution of an executing intent, decided from its persisted
 * record (nextAction): start a step, run one sub-transaction to its receipt,
 * or finish a step. The caller loops until the intent is final.
 */
export async function executeNext(intent: Intent, unit: UnitContext): Promise<Intent> {
  // With user operations a bridge's mint waits for its destination's operation: a failure first settles what burns owe.
  const ctx: UnitContext = intent.accountModels ? { ...unit, beforeFail: (i, failing) => settleOwedMints(i, unit, failing.index) } : unit;
  const action = nextAction(intent);
  // A cancel request stops the intent before a step that has nothing signed yet; a step with a signed transaction runs to its end.
  const unsent = action.type === 'start-step' || ((action.type === 'sub-tx' || action.type === 'operation') && action.record === undefined);
  const cancel = unsent ? cancelPoint(intent, action.type === 'operation' ? action.units[0]!.step : action.step) : null;
  if (cancel && mintsOwed(intent).length > 0) {
    // burned means minted: the owed mints first, then the cancel on the next turn
    return settleOwedMints(intent, ctx);
  }
  if (cancel) {
    const error = cancelledWithIdleFunds(intent);
    return ctx.commit(error ? { ...cancel, error } : cancel);
  }
  switch (action.type) {
    case 'start-step': {
      // Defence in depth: a step the intent's recorded policy does not allow is never signed, whatever the plan says.
      const refused = intent.policy ? refuseStep(intent.policy.rules, stepFacts(intent, action.step)) : null;
      if (refused && intent.policy) return failStep(intent, action.step, policyViolation(intent.policy, refused), ctx);
      return ctx.commit({ type: 'stepStarted', step: action.step.index });
    }
    case 'sub-tx':
      return runSubTx(intent, action.step, action.spec, ctx);
    case 'operation':
      return runOperation(intent, action.units, ctx);
    case 'reverted':
      return failStep(
        intent,
        action.step,
        stepFailed(action.step, `${action.record.kind} transaction reverted`, { kind: action.record.kind, txHash: action.record.txHash }),
        ctx,
      );
    case 'finish-step':
      return finishStep(intent, action.step, ctx);
    case 'complete':
      return ctx.commit(completion(intent, { ...(intent.results ?? emptyResults()), finalAmount: finalAmountOf(intent) }));
  }
}
