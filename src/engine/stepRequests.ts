import { ServiceError } from '../domain/errors/base';
import { FINALITY_OF_SPEED, type Step } from '../domain/intent';
import { toUnits } from '../domain/money';
import type { AssumedFunds, Attested, Protocol, TxKind, TxRequest } from '../ports/chain';
import type { ChainName } from '../domain/chains';
import { plannedFeeOf } from './stepAmounts';

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
 * What each step kind sends: deposit = approve(protocol) + supply, or the
 * supply alone when it carries a permit (`step.permit`); withdraw = withdraw
 * (the exact amount); bridge = approve(bridge) + burn, then, after the
 * attestation, mint on the destination by the relayer.
 */
export function subTransactions(step: Step): SubTxSpec[] {
  switch (step.type) {
    case 'deposit':
      if (step.permit) return [{ kind: 'supply', chain: step.chain, signer: 'wallet', main: true }];
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
 * The chain port requests of a step: the one call builder of the executor
 * (which sends them) and of the preview (which prices them). Pure: what the
 * executor learns while it runs (what a bridge's mint delivered, the
 * attestation of its burn) is handed in.
 */

/** What a request of the step depends on beyond the step: the deposit's amount as the executor counts it, the mint's attested message. */
export interface StepRequestInputs {
  /** A deposit's amount in smallest units (default: its planned amount). */
  depositUnits?: bigint;
  /** A bridge's mint: the burn's attested message (absent: an empty one, for a gas figure that cannot be estimated anyway). */
  attested?: Attested;
}

/** One request of a step, with the funds an earlier request of the same step brings (what a simulation grants it). */
export interface StepRequest {
  tx: TxRequest;
  assume?: AssumedFunds;
}

const unexpected = (step: Step, kind: TxKind): ServiceError =>
  new ServiceError('INTERNAL_ERROR', `A ${step.type} step sends no ${kind}`, { details: { step: step.index, kind } });

/**
 * The step's protocol, named as its plan names it: the chain port's protocol
 * registry knows the modules, and refuses a name it has none of (a plan
 * naming another is a programming error, INTERNAL_ERROR) in the executor and
 * in the preview alike.
 */
const protocolOf = (step: Step & { protocol: string }): Protocol => step.protocol as Protocol;

/** The request of `kind` of `step`. */
export function stepRequest(step: Step, kind: TxKind, inputs: StepRequestInputs = {}): TxRequest {
  if (step.type === 'bridge') {
    const amount = toUnits(step.amount, 'USDC');
    switch (kind) {
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
      case 'mint':
        return { kind: 'mint', chain: step.to, message: inputs.attested?.message ?? '0x', attestation: inputs.attested?.attestation ?? '0x' };
      default:
        throw unexpected(step, kind);
    }
  }
  const protocol = protocolOf(step);
  if (step.type === 'deposit') {
    const amount = inputs.depositUnits ?? toUnits(step.amount, step.asset);
    if (kind === 'approve') return { kind: 'approve', chain: step.chain, asset: step.asset, spender: protocol, amount };
    if (kind === 'supply') return { kind: 'supply', chain: step.chain, protocol, asset: step.asset, amount, ...(step.permit && { permit: true as const }) };
    if (kind === 'revoke') return { kind: 'revoke', chain: step.chain, asset: step.asset, spender: protocol };
    throw unexpected(step, kind);
  }
  if (kind === 'withdraw') return { kind: 'withdraw', chain: step.chain, protocol, asset: step.asset, amount: toUnits(step.amount, step.asset) };
  throw unexpected(step, kind);
}

/** Every request the step sends, in order (subTransactions), each with the funds its step's approve (or permit) allows it to spend. */
export function stepRequests(step: Step, inputs: StepRequestInputs = {}): StepRequest[] {
  return subTransactions(step).map(({ kind }): StepRequest => {
    const tx = stepRequest(step, kind, inputs);
    if (tx.kind === 'supply') return { tx, assume: { asset: tx.asset, amount: tx.amount, spender: tx.protocol } };
    if (tx.kind === 'burn') return { tx, assume: { asset: 'USDC', amount: tx.amount, spender: 'bridge' } };
    return { tx };
  });
}
