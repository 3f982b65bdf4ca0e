import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, WaitForTransactionReceiptTimeoutError } from 'viem';
import { isServiceError, type ServiceError } from '../../domain/errors/base';
import { networkError, timeoutError } from '../../domain/errors/chain';
import type { ChainName } from '../../domain/chains';

/**
 * Node trouble becomes NETWORK_ERROR or TIMEOUT (retryable); anything else is
 * rethrown as is. viem wraps transport errors (a contract read that timed
 * out is a ContractFunctionExecutionError around a TimeoutError), so the
 * whole cause chain is looked at, not only the outer error.
 */
export function translateChainError(chain: ChainName, e: unknown): ServiceError | unknown {
  if (isServiceError(e)) return e;
  if (e instanceof TimeoutError || e instanceof WaitForTransactionReceiptTimeoutError) return timeoutError(chain, e);
  if (e instanceof HttpRequestError) return networkError(chain, e);
  if (e instanceof BaseError) {
    if (e.walk((x) => x instanceof TimeoutError || x instanceof WaitForTransactionReceiptTimeoutError)) return timeoutError(chain, e);
    if (e.walk((x) => x instanceof HttpRequestError)) return networkError(chain, e);
  }
  // JSON-RPC internal errors other than execution reverts are node trouble, retryable.
  if (e instanceof RpcRequestError && !/revert|VM Exception/i.test(`${e.details}`)) return networkError(chain, e);
  const msg = e instanceof Error ? e.message : String(e);
  if (/ECONNREFUSED|ECONNRESET|fetch failed|socket hang up/i.test(msg)) return networkError(chain, e);
  return e;
}

/** Runs `fn`, translating node errors for `chain`. */
export async function onChain<T>(chain: ChainName, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw translateChainError(chain, e);
  }
}
