import { ServiceError } from '../../domain/errors/base';
import type { Intent, Step } from '../../domain/intent';
import type { ChainPort, TxKind, TxRequest } from '../../ports/chain';
import { findSubTx } from '../../domain/txRecords';
import { depositAmount } from '../stepAmounts';
import { stepRequest, type SubTxSpec } from '../stepRequests';

/**
 * The `revoke` a failed step owes: its approve was confirmed but the spend it
 * allowed (supply, burn) was not, so the allowance would outlive the intent.
 * A permit supply owes none.
 * Null when there is none, or when the revoke is confirmed already.
 */
export function leftoverAllowance(step: Step, results: Intent['results']): SubTxSpec | null {
  // a permit lives and dies with its supply: a reverted one left no allowance
  if (step.type === 'withdraw' || (step.type === 'deposit' && step.permit)) return null;
  const spend = step.type === 'deposit' ? 'supply' : 'burn';
  const confirmed = (kind: TxKind): boolean => findSubTx(results, step.index, kind)?.status === 'confirmed';
  if (!confirmed('approve') || confirmed(spend) || confirmed('revoke')) return null;
  return { kind: 'revoke', chain: step.type === 'bridge' ? step.from : step.chain, signer: 'wallet', main: false };
}

/**
 * The chain port request for `spec` of `step` (the pure call builder is
 * stepRequests.ts, shared with the preview). A mint first asks for the
 * attestation of the step's burn (so it needs the burn's persisted hash); a
 * deposit supplies what its bridges delivered (depositAmount).
 */
export async function buildRequest(intent: Intent, step: Step, spec: SubTxSpec, chains: Pick<ChainPort, 'attest'>): Promise<TxRequest> {
  if (step.type === 'bridge' && spec.kind === 'mint') {
    const burn = findSubTx(intent.results, step.index, 'burn');
    if (burn?.status !== 'confirmed') {
      throw new ServiceError('INTERNAL_ERROR', 'Mint before a confirmed burn', { details: { step: step.index } });
    }
    return stepRequest(step, 'mint', { attested: await chains.attest(step.from, burn.txHash) });
  }
  return stepRequest(step, spec.kind, step.type === 'deposit' ? { depositUnits: depositAmount(intent, step) } : {});
}
