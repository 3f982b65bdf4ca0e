import type { ChainName } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { type BridgeStep, type DepositStep, type Intent, type Step } from '../../domain/intent';
import { toUnits } from '../../domain/money';
import type { ChainPort, TxKind, TxRequest } from '../../ports/chain';
import { stepRequest } from '../stepRequests';
import { findSubTx, mintedOf } from './txRecords';

/** One transaction a step sends, in order. */
export interface SubTxSpec {
  kind: TxKind;
  chain: ChainName;
  /** The wallet's own key, or the service's relayer (CCTP mint on the destination). */
  signer: 'wallet' | 'relayer';
  /** The transaction that moves the funds; its hash becomes the step's `txHash`. */
  main: boolean;
}

/**
 * What each step kind sends: deposit = approve(protocol) + supply; withdraw =
 * withdraw (the exact amount); bridge = approve(bridge) + burn, then, after
 * the attestation, mint on the destination by the relayer.
 */
export function subTransactions(step: Step): SubTxSpec[] {
  switch (step.type) {
    case 'deposit':
      return [
        { kind: 'approve', chain: step.chain, signer: 'wallet', main: false },
        { kind: 'supply', chain: step.chain, signer: 'wallet', main: true },
      ];
    case 'withdraw':
      return [{ kind: 'withdraw', chain: step.chain, signer: 'wallet', main: true }];
    case 'bridge':
      return [
        { kind: 'approve', chain: step.from, signer: 'wallet', main: false },
        { kind: 'burn', chain: step.from, signer: 'wallet', main: true },
        { kind: 'mint', chain: step.to, signer: 'relayer', main: false },
      ];
  }
}

/**
 * The `revoke` a failed step owes: its approve was confirmed but the spend it
 * allowed (supply, burn) was not, so the allowance would outlive the intent.
 * Null when there is none, or when the revoke is confirmed already.
 */
export function leftoverAllowance(step: Step, results: Intent['results']): SubTxSpec | null {
  if (step.type === 'withdraw') return null;
  const spend = step.type === 'deposit' ? 'supply' : 'burn';
  const confirmed = (kind: TxKind): boolean => findSubTx(results, step.index, kind)?.status === 'confirmed';
  if (!confirmed('approve') || confirmed(spend) || confirmed('revoke')) return null;
  return { kind: 'revoke', chain: step.type === 'bridge' ? step.from : step.chain, signer: 'wallet', main: false };
}

/** The CCTP fee planned for a bridge step (its burn's maxFee), smallest units; `fee` on steps planned before maxFee was recorded. */
export const plannedFeeOf = (step: BridgeStep): bigint => toUnits(step.maxFee ?? step.fee ?? '0', 'USDC');

/**
 * What a deposit supplies: its planned amount, with each earlier bridge into
 * its chain counted at what its mint delivered instead of what was planned
 * to arrive. The fee a mint keeps back is the attestation service's, fixed
 * after planning (at most the planned one, the burn's maxFee), so the deposit
 * supplies what arrived rather than an amount the wallet may not hold.
 * Once the step is completed, its amount already is what it supplied.
 */
export function depositAmount(intent: Intent, step: DepositStep): bigint {
  let amount = toUnits(step.amount, step.asset);
  // A completed deposit's amount is what it supplied (finishStep writes it back).
  if (step.status === 'completed') return amount;
  for (const s of intent.executionPlan?.steps ?? []) {
    if (s.type !== 'bridge' || s.to !== step.chain || s.index >= step.index || step.asset !== 'USDC') continue;
    const minted = mintedOf(intent.results, s.index);
    if (minted !== undefined) amount += minted - (toUnits(s.amount, 'USDC') - plannedFeeOf(s));
  }
  return amount;
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
