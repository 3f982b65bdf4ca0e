import type { Intent, Step } from '../../domain/intent';
import { findSubTx } from '../../domain/txRecords';
import { subTransactions } from '../stepRequests';
import type { UnitContext } from '../unitContext';
import { finishStep } from './finishStep';
import { stepOf, runSubTx } from './runSubTx';

/**
 * Bridge steps whose burn is confirmed and whose mint is not: with user
 * operations a bridge's mint waits for its destination's operation (after
 * every source), so a failure or a cancel in between would leave burned
 * funds unminted. `except`: the failing step itself.
 */
export function mintsOwed(intent: Intent, except?: number): Step[] {
  return (intent.executionPlan?.steps ?? []).filter(
    (s) =>
      s.type === 'bridge' &&
      s.index !== except &&
      s.status === 'executing' &&
      findSubTx(intent.results, s.index, 'burn')?.status === 'confirmed' &&
      findSubTx(intent.results, s.index, 'mint')?.status !== 'confirmed',
  );
}

/**
 * Burned means minted: before an intent fails or is cancelled, every mint its
 * confirmed burns owe is sent (by the relayer, as on the plain path: any
 * account may receive a message, and the wallet needs no gas for it) and its
 * bridge step completed. The funds then sit on the destination, as they
 * would had the intent stopped at that point on the plain path.
 */
export async function settleOwedMints(intent: Intent, ctx: UnitContext, except?: number): Promise<Intent> {
  let current = intent;
  for (let owed = mintsOwed(current, except)[0]; owed !== undefined; owed = mintsOwed(current, except)[0]) {
    const spec = subTransactions(owed).find((s) => s.kind === 'mint')!;
    current = await runSubTx(current, owed, spec, { ...ctx, beforeFail: undefined });
    if (current.status !== 'executing') return current;
    if (findSubTx(current.results, owed.index, 'mint')?.status !== 'confirmed') return current;
    current = await finishStep(current, stepOf(current, owed.index), ctx);
  }
  return current;
}
