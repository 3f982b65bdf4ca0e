import { BaseError, ContractFunctionRevertedError, EstimateGasExecutionError, HttpRequestError, TimeoutError } from 'viem';

/** What a node's error says, as the operations need to tell it apart. */

/** A node error that says the transaction was mined and reverted (Hardhat automine). */
export function minedWithRevert(e: unknown): boolean {
  const text = e instanceof BaseError ? `${e.message} ${e.details}` : String(e);
  return /VM Exception while processing transaction/i.test(text);
}

/** The node refused the nonce (another sender used it first). */
export function nonceTaken(e: unknown): boolean {
  const cause = (e as { cause?: unknown }).cause ?? e;
  const text = cause instanceof BaseError ? `${cause.message} ${cause.details}` : String((cause as Error)?.message ?? cause);
  return /nonce too low|nonce has already been used|replacement transaction underpriced/i.test(text);
}

/** The node already holds these very bytes. */
export function alreadyKnown(e: unknown): boolean {
  return /already known|known transaction/i.test(`${(e as Error).message} ${(e as BaseError).details ?? ''}`);
}

/** Gas estimation failed because the call reverts in the EVM. */
export function isExecutionRevert(e: unknown): boolean {
  return (
    e instanceof BaseError &&
    (e instanceof EstimateGasExecutionError || e.walk((x) => x instanceof ContractFunctionRevertedError) !== null || /revert/i.test(e.message))
  );
}

/** The node's revert reason, as specific as the error carries it. */
export function revertReason(e: unknown): string {
  if (!(e instanceof BaseError)) return String(e);
  const reverted = e.walk((x) => x instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  return reverted?.reason ?? e.details ?? e.shortMessage;
}

/** Node trouble (the node did not answer) as opposed to the call failing in the EVM. */
export const isTransportError = (e: unknown): boolean =>
  e instanceof BaseError && e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError) !== null;
