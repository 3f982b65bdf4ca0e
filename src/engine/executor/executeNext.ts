import { emptyResults, type Intent, type IntentResults, type Step } from '../../domain/intent';
import { fromUnits, toUnits } from '../../domain/money';
import type { IntentEvent } from '../../domain/intentStateMachine';
import type { UnitContext } from '../unitContext';
import { nextAction } from './nextAction';
import { failStep, runSubTx } from './runSubTx';
import { runOperation } from './runOperation';
import { stepFailed } from './stepFailure';
import { depositAmount } from '../stepAmounts';
import { subTransactions } from '../stepRequests';
import { gasTotals, mintedOf, stepRecords } from '../../domain/txRecords';
import { refuseStep, type StepFacts } from '../../domain/policy';
import { policyViolation } from '../../domain/errors/policy';
import { cancelPoint } from '../cancelRequest';
import { cancelledWithIdleFunds } from './rebalanceIdle';

/** A bridge step's fee once minted: what its mint kept back (the planned fee until then). */
function settledFee(intent: Intent, step: Step): string | undefined {
  if (step.type !== 'bridge') return step.fee;
  const minted = mintedOf(intent.results, step.index);
  return minted === undefined ? step.fee : fromUnits(toUnits(step.amount, 'USDC') - minted, 'USDC');
}

/** What the intent finally put in place: a lend's deposit as supplied, a bridge's mint as delivered, else the planned amount. */
function finalAmountOf(intent: Intent): string {
  const last = intent.executionPlan?.steps.at(-1);
  if (last?.type === 'deposit') return fromUnits(depositAmount(intent, last), last.asset);
  const minted = last?.type === 'bridge' ? mintedOf(intent.results, last.index) : undefined;
  return minted === undefined ? intent.amount : fromUnits(minted, 'USDC');
}

/** Results with what the CCTP fees of the minted bridges took (absent while none is minted). */
function withBridgeFees(intent: Intent, results: IntentResults): IntentResults {
  let fees: bigint | undefined;
  for (const s of intent.executionPlan?.steps ?? []) {
    const minted = s.type === 'bridge' ? mintedOf(results, s.index) : undefined;
    if (minted !== undefined) fees = (fees ?? 0n) + toUnits(s.amount, 'USDC') - minted;
  }
  return fees === undefined ? results : { ...results, bridgeFees: fromUnits(fees, 'USDC') };
}

/** The `complete` event: an intent ending in a deposit moved what that deposit supplied, so its `amount` says so. */
function completion(intent: Intent, results: IntentResults, step?: Step): IntentEvent {
  const last = intent.executionPlan?.steps.at(-1);
  const amount = last?.type === 'deposit' && results.finalAmount !== intent.amount ? results.finalAmount : undefined;
  return { type: 'complete', results, ...(step && { step }), ...(amount !== undefined && { amount }) };
}

/** Marks `step` completed with its gas, main hash and (a deposit) what it supplied; completes the intent when it was the last step. */
function finishStep(intent: Intent, step: Step, ctx: UnitContext): Promise<Intent> {
  const records = stepRecords(intent.results, step.index);
  const gas = gasTotals(records);
  const mainKind = subTransactions(step).find((s) => s.main)?.kind;
  const done: Step = {
    ...step,
    status: 'completed',
    completedAt: ctx.clock.now().toISOString(),
    txHash: records.find((r) => r.kind === mainKind)?.txHash ?? step.txHash,
    gasUsed: gas.gasUsed,
    gasCostUsd: gas.gasCostUsd,
  };
  const fee = settledFee(intent, step);
  if (fee !== undefined) done.fee = fee;
  // A deposit shows what it supplied: more than planned when a mint kept back less fee than the plan allowed.
  if (step.type === 'deposit' && done.type === 'deposit') done.amount = fromUnits(depositAmount(intent, step), step.asset);
  const steps = intent.executionPlan?.steps ?? [];
  const completedSteps = steps.filter((s) => s.status === 'completed' || s.index === step.index).length;
  const results = withBridgeFees(intent, { ...(intent.results ?? emptyResults()), completedSteps });
  if (completedSteps === steps.length) return ctx.commit(completion(intent, { ...results, finalAmount: finalAmountOf(intent) }, done));
  return ctx.commit({ type: 'stepCompleted', step: done, results });
}

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
export async function executeNext(intent: Intent, ctx: UnitContext): Promise<Intent> {
  const action = nextAction(intent);
  // A cancel request stops the intent before a step that has nothing signed yet; a step with a signed transaction runs to its end.
  const unsent = action.type === 'start-step' || ((action.type === 'sub-tx' || action.type === 'operation') && action.record === undefined);
  const cancel = unsent ? cancelPoint(intent, action.type === 'operation' ? action.units[0]!.step : action.step) : null;
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
