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
  delegated: boolean;
  /** Sandbox faults: a batch that reverts gets this limit instead of being refused (it is mined and fails). */
  gasIfReverts?: bigint;
}

/**
 * Gas of the operation's execution phase (its callGasLimit before margin):
 * `executeBatch(calls)` run as the EntryPoint will run it, from the
 * EntryPoint to the wallet, on the chain as it stands. A delegated wallet is
 * estimated by the node (eth_estimateGas; its figure includes the 21,000 of a
 * transaction, a margin here). A wallet not delegated yet is run by eth_call
 * with its code overridden by the designator (Hardhat's eth_estimateGas takes
 * no state override): a revert is caught the same way, and the gas is the
 * calls' typical figures. A revert refuses the operation before anything is
 * signed: WouldRevertError with the failing call's kind and index.
 */
export async function executionGas(access: ChainAccess, chain: ChainName, b: BatchToRun): Promise<bigint> {
  const typical = b.calls.reduce((sum, tx) => sum + TYPICAL_GAS[tx.kind], 0n);
  try {
    if (b.delegated) return await access.call(chain, (c) => c.client.estimateGas({ account: b.entryPoint, to: b.wallet, data: b.callData }));
    await access.call(chain, (c) =>
      c.client.call({
        account: b.entryPoint,
        to: b.wallet,
        data: b.callData,
        gas: CHECK_GAS_CAP,
        stateOverride: [{ address: b.wallet, code: designatorOf(b.delegate) }],
      }),
    );
    return typical;
  } catch (e) {
    if (isTransportError(e) || !(isExecutionRevert(e) || revertDataOf(e) !== undefined)) throw e;
    if (b.gasIfReverts !== undefined) return b.gasIfReverts;
    throw refusal(chain, b.calls, e);
  }
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
