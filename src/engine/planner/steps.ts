import type { ChainName, TokenAsset } from '../../domain/chains';
import type { BridgeStep, DepositStep, WithdrawStep } from '../../domain/intent';
import { fromUnits } from '../../domain/money';

/** A pending deposit of `amount` into `protocol` on `chain` (marked when the market exists only in the sandbox). */
export function depositStep(index: number, chain: ChainName, protocol: string, asset: TokenAsset, amount: bigint, sandboxOnly?: true): DepositStep {
  return { index, type: 'deposit', status: 'pending', chain, protocol, asset, amount: fromUnits(amount, asset), ...(sandboxOnly && { sandboxOnly }) };
}

/** A pending withdrawal of `amount` from `protocol` on `chain` (marked when the market exists only in the sandbox). */
export function withdrawStep(index: number, chain: ChainName, protocol: string, asset: TokenAsset, amount: bigint, sandboxOnly?: true): WithdrawStep {
  return { index, type: 'withdraw', status: 'pending', chain, protocol, asset, amount: fromUnits(amount, asset), ...(sandboxOnly && { sandboxOnly }) };
}

/** A pending bridge of `amount` from `from` to `to`; `fee` comes out of it on arrival, and is the most the burn lets the mint keep (`maxFee`). */
export function bridgeStep(index: number, from: ChainName, to: ChainName, asset: TokenAsset, amount: bigint, fee: bigint): BridgeStep {
  const planned = fromUnits(fee, asset);
  return { index, type: 'bridge', status: 'pending', chain: from, from, to, amount: fromUnits(amount, asset), fee: planned, maxFee: planned };
}
