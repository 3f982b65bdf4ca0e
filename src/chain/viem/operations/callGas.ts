import type { Address, Hex } from 'viem';
import type { ChainName } from '../../../domain/chains';
import { WouldRevertError, type TxRequest } from '../../../ports/chain';
import { TYPICAL_GAS } from '../../../ports/typicalGas';
import type { ChainAccess } from '../chainAccess';
import { isExecutionRevert, isTransportError, revertReason } from '../nodeErrors';
import { designatorOf } from './delegation';
import { describeRevert, failedCallOf, revertDataOf } from './revertReasons';

/** Gas an eth_call that only checks a batch for reverts may use (far above any batch of the service). */
const CHECK_GAS_CAP = 5_000_000n;

export interface BatchToRun {
  wallet: Address;
  entryPoint: Address;
  delegate: Address;
  /** executeBatch(calls), as the EntryPoint will call the wallet. */
  callData: Hex;
  calls: readonly TxRequest[];
  /** Sandbox faults: a batch that reverts gets this limit instead of being refused (it is mined and fails). */
  gasIfReverts?: bigint;
}

/** What a node call settled to: its value, or the error it failed with. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Gas of the operation's execution phase (its callGasLimit before margin):
 * `executeBatch(calls)` run as the EntryPoint will run it, from the
 * EntryPoint to the wallet, on the chain as it stands, asked of the node
 * alongside the wallet's delegation (one round trip): an eth_call with the
 * wallet's code overridden by the designator (so a wallet not delegated yet
 * runs as it will; Hardhat's eth_estimateGas takes no state override) says
 * whether a call reverts, and eth_estimateGas gives the gas of a delegated
 * wallet (its figure includes a transaction's 21,000: a margin here); a
 * wallet not delegated yet is given its calls' typical figures. A revert
 * refuses the operation before anything is signed: WouldRevertError with the
 * failing call's kind and index.
 */
export async function executionGas(access: ChainAccess, chain: ChainName, b: BatchToRun, delegated: Promise<boolean>): Promise<bigint> {
  const typical = b.calls.reduce((sum, tx) => sum + TYPICAL_GAS[tx.kind], 0n);
  const [isDelegated, checked, estimated] = await Promise.all([
    delegated,
    settle(
      access.call(chain, (c) =>
        c.client.call({
          account: b.entryPoint,
          to: b.wallet,
          data: b.callData,
          gas: CHECK_GAS_CAP,
          stateOverride: [{ address: b.wallet, code: designatorOf(b.delegate) }],
        }),
      ),
    ),
    settle(access.call(chain, (c) => c.client.estimateGas({ account: b.entryPoint, to: b.wallet, data: b.callData }))),
  ]);
  if (!checked.ok) {
    const e = checked.error;
    if (isTransportError(e) || !(isExecutionRevert(e) || revertDataOf(e) !== undefined)) throw e;
    if (b.gasIfReverts !== undefined) return b.gasIfReverts;
    throw refusal(chain, b.calls, e);
  }
  if (!isDelegated) return typical;
  if (estimated.ok) return estimated.value;
  // the check passed but the estimate failed: node trouble is thrown, a revert meanwhile is the check's to find next time
  if (isTransportError(estimated.error) || !isExecutionRevert(estimated.error)) throw estimated.error;
  if (b.gasIfReverts !== undefined) return b.gasIfReverts;
  throw refusal(chain, b.calls, estimated.error);
}
/** The WouldRevertError of a reverting batch: the call ExecuteError names, or the only call. */
function refusal(chain: ChainName, calls: readonly TxRequest[], e: unknown): WouldRevertError {
  const data = revertDataOf(e);
  const failed = data === undefined ? null : failedCallOf(data);
  if (failed !== null && calls[failed.index] !== undefined) return new WouldRevertError(chain, calls[failed.index]!.kind, failed.reason, failed.index);
  const reason = data === undefined ? revertReason(e) : describeRevert(data);
  if (calls.length === 1) return new WouldRevertError(chain, calls[0]!.kind, reason, 0);
  // a batch whose revert names no call (not expected of Simple7702Account): charged to the last call
  return new WouldRevertError(chain, calls[calls.length - 1]!.kind, reason);
}
