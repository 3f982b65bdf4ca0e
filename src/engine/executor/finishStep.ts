import { emptyResults, type Intent, type IntentResults, type Step } from '../../domain/intent';
import { fromUnits, toUnits } from '../../domain/money';
import type { IntentEvent } from '../../domain/intentStateMachine';
import type { UnitContext } from '../unitContext';
import { depositAmount } from '../stepAmounts';
import { subTransactions } from '../stepRequests';
import { gasTotals, mintedOf, stepRecords } from '../../domain/txRecords';

/** A bridge step's fee once minted: what its mint kept back (the planned fee until then). */
function settledFee(intent: Intent, step: Step): string | undefined {
  if (step.type !== 'bridge') return step.fee;
  const minted = mintedOf(intent.results, step.index);
  return minted === undefined ? step.fee : fromUnits(toUnits(step.amount, 'USDC') - minted, 'USDC');
}

/** What the intent finally put in place: a lend's deposit as supplied, a bridge's mint as delivered, else the planned amount. */
export function finalAmountOf(intent: Intent): string {
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
export function completion(intent: Intent, results: IntentResults, step?: Step): IntentEvent {
  const last = intent.executionPlan?.steps.at(-1);
  const amount = last?.type === 'deposit' && results.finalAmount !== intent.amount ? results.finalAmount : undefined;
  return { type: 'complete', results, ...(step && { step }), ...(amount !== undefined && { amount }) };
}

/** Marks `step` completed with its gas, main hash and (a deposit) what it supplied; completes the intent when it was the last step. */
export function finishStep(intent: Intent, step: Step, ctx: UnitContext): Promise<Intent> {
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
