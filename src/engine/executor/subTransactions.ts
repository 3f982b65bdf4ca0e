import type { ChainName } from '../../domain/chains';
import { ServiceError } from '../../domain/errors/base';
import { FINALITY_OF_SPEED, type Intent, type Step } from '../../domain/intent';
import { toUnits } from '../../domain/money';
import { PROTOCOLS, type ChainPort, type Protocol, type TxKind, type TxRequest } from '../../ports/chain';
import { findSubTx } from '../../domain/txRecords';
import { depositAmount, plannedFeeOf } from '../stepAmounts';

// What a step moves is read by the planner too, so it lives below both (src/engine/stepAmounts.ts).
export { depositAmount, plannedFeeOf } from '../stepAmounts';

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

/** The step's protocol as the chain port names it; a plan naming another is a programming error. */
function protocolOf(step: Step & { protocol: string }): Protocol {
  const p = PROTOCOLS.find((x) => x === step.protocol);
  if (p === undefined) {
    throw new ServiceError('INTERNAL_ERROR', `Unknown lending protocol ${step.protocol}`, { details: { step: step.index, protocol: step.protocol } });
  }
  return p;
}

const unexpected = (step: Step, kind: TxKind): ServiceError =>
  new ServiceError('INTERNAL_ERROR', `A ${step.type} step sends no ${kind}`, { details: { step: step.index, kind } });

/**
 * The chain port request for `spec` of `step`. A mint first asks for the
 * attestation of the step's burn (so it needs the burn's persisted hash).
 */
export async function buildRequest(intent: Intent, step: Step, spec: SubTxSpec, chains: Pick<ChainPort, 'attest'>): Promise<TxRequest> {
  if (step.type === 'bridge') {
    const amount = toUnits(step.amount, 'USDC');
    switch (spec.kind) {
      case 'approve':
        return { kind: 'approve', chain: step.from, asset: 'USDC', spender: 'bridge', amount };
      case 'burn':
        return {
          kind: 'burn',
          chain: step.from,
          toChain: step.to,
          amount,
          maxFee: plannedFeeOf(step),
          minFinalityThreshold: step.minFinalityThreshold ?? FINALITY_OF_SPEED.fast,
        };
      case 'revoke':
        return { kind: 'revoke', chain: step.from, asset: 'USDC', spender: 'bridge' };
      case 'mint': {
        const burn = findSubTx(intent.results, step.index, 'burn');
        if (burn?.status !== 'confirmed') {
          throw new ServiceError('INTERNAL_ERROR', 'Mint before a confirmed burn', { details: { step: step.index } });
        }
        const { message, attestation } = await chains.attest(step.from, burn.txHash);
        return { kind: 'mint', chain: step.to, message, attestation };
      }
      default:
        throw unexpected(step, spec.kind);
    }
  }
  const protocol = protocolOf(step);
  if (step.type === 'deposit') {
    const amount = depositAmount(intent, step);
    if (spec.kind === 'approve') return { kind: 'approve', chain: step.chain, asset: step.asset, spender: protocol, amount };
    if (spec.kind === 'supply') return { kind: 'supply', chain: step.chain, protocol, asset: step.asset, amount };
    if (spec.kind === 'revoke') return { kind: 'revoke', chain: step.chain, asset: step.asset, spender: protocol };
    throw unexpected(step, spec.kind);
  }
  if (spec.kind === 'withdraw') return { kind: 'withdraw', chain: step.chain, protocol, asset: step.asset, amount: toUnits(step.amount, step.asset) };
  throw unexpected(step, spec.kind);
}
