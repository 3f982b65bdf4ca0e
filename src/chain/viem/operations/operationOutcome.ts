import { parseEventLogs, type Address, type Log } from 'viem';
import type { OperationOutcome } from '../../../ports/chain';
import { entryPoint08Abi } from './abis';
import { describeRevert, failedCallOf } from './revertReasons';

/**
 * What EntryPoint v0.8 logged of the operation a mined bundle carried
 * (UserOperationEvent, and UserOperationRevertReason when its execution
 * reverted: ExecuteError(index, error) names the failing call), or undefined
 * for a transaction that bundled none.
 */
export function operationOutcome(logs: readonly Log[], entryPoint: Address): OperationOutcome | undefined {
  const ours = logs.filter((l) => l.address.toLowerCase() === entryPoint.toLowerCase());
  const [event] = parseEventLogs({ abi: entryPoint08Abi, logs: ours, eventName: 'UserOperationEvent' });
  if (event === undefined) return undefined;
  const { userOpHash, success, actualGasCost, actualGasUsed } = event.args;
  const outcome: OperationOutcome = { userOpHash, success, actualGasCost, actualGasUsed };
  if (success) return outcome;
  const [reverted] = parseEventLogs({ abi: entryPoint08Abi, logs: ours, eventName: 'UserOperationRevertReason' }).filter(
    (l) => l.args.userOpHash === userOpHash,
  );
  if (reverted === undefined) return { ...outcome, reason: 'reverted' };
  const failed = failedCallOf(reverted.args.revertReason);
  return failed === null ? { ...outcome, reason: describeRevert(reverted.args.revertReason) } : { ...outcome, failedCall: failed.index, reason: failed.reason };
}
