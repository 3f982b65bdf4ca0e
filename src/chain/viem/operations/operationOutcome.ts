import { decodeAbiParameters, decodeErrorResult, parseEventLogs, slice, type Hex, type Log } from 'viem';
import { entryPoint08Abi } from 'viem/account-abstraction';
import type { OperationOutcome } from '../../../ports/chain';

/** Simple7702Account v0.8 (BaseAccount.executeBatch): a batch of more than one call reverts `ExecuteError(index, error)`. */
const EXECUTE_ERROR = '0x5a154675';

/** Solidity's Error(string) and Panic(uint256), the reasons our contracts give. */
const STANDARD_ERRORS = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const;

/** A revert's data as words a person reads: Error(string)'s message, else the selector. */
export function readableReason(data: Hex): string {
  if (data === '0x' || data.length < 10) return 'reverted without a reason';
  try {
    const e = decodeErrorResult({ abi: STANDARD_ERRORS, data });
    return e.errorName === 'Error' ? String(e.args[0]) : `panic ${String(e.args[0])}`;
  } catch {
    return `custom error ${slice(data, 0, 4)}`;
  }
}

/** Which call of a batch reverted, and why, from the revert data of executeBatch (a lone call reverts with its own data). */
export function failingCall(data: Hex, calls: number): { index?: number; reason: string } {
  if (data.toLowerCase().startsWith(EXECUTE_ERROR)) {
    try {
      const [index, inner] = decodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], slice(data, 4));
      return { index: Number(index), reason: readableReason(inner) };
    } catch {
      return { reason: 'ExecuteError' };
    }
  }
  return { ...(calls === 1 && { index: 0 }), reason: readableReason(data) };
}

/**
 * The outcome of the user operation a bundle carried, read from its logs:
 * EntryPoint v0.8's UserOperationEvent (success, what the paymaster paid) and,
 * when the execution reverted, UserOperationRevertReason (the failing call of
 * the batch). Undefined for a transaction that carried no operation.
 */
export function operationOutcome(logs: readonly Log[], entryPoint: Hex): OperationOutcome | undefined {
  const ours = logs.filter((l) => l.address.toLowerCase() === entryPoint.toLowerCase());
  const [event] = parseEventLogs({ abi: entryPoint08Abi, logs: ours, eventName: 'UserOperationEvent' });
  if (event === undefined) return undefined;
  const outcome: OperationOutcome = {
    userOpHash: event.args.userOpHash,
    success: event.args.success,
    actualGasCost: event.args.actualGasCost,
    actualGasUsed: event.args.actualGasUsed,
  };
  if (event.args.success) return outcome;
  const [revert] = parseEventLogs({ abi: entryPoint08Abi, logs: ours, eventName: 'UserOperationRevertReason' });
  if (revert === undefined) return { ...outcome, reason: 'the operation failed outside its calls' };
  // The call count is unknown here: a reason that is not ExecuteError came from a lone call (index 0) or from the account itself.
  const { index, reason } = failingCall(revert.args.revertReason, 1);
  return { ...outcome, ...(index !== undefined && { failedCall: index }), reason };
}
