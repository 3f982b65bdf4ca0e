import { BaseError, HttpRequestError, RpcRequestError, TimeoutError, type Transport } from 'viem';
import type { ChainName } from '../../domain/chains';

/** How a JSON-RPC request failed: no answer in time, no connection, the node refused to execute, or another JSON-RPC error. */
export type RpcErrorKind = 'timeout' | 'network' | 'revert' | 'rpc';

/** One JSON-RPC request to a chain's node, as it ended. */
export interface RpcCall {
  chain: ChainName;
  /** The JSON-RPC method (`eth_call`, `eth_sendRawTransaction`, ...). */
  method: string;
  seconds: number;
  /** Absent when the node answered with a result. */
  error?: RpcErrorKind;
}

/** Told of every JSON-RPC request the chain adapter makes (metrics); must not throw. */
export type RpcObserver = (call: RpcCall) => void;

/** The kind of a transport error (viem wraps them; the whole cause chain is looked at). */
export function rpcErrorKind(e: unknown): RpcErrorKind {
  const has = (ctor: abstract new (...args: never[]) => unknown) => e instanceof ctor || (e instanceof BaseError && e.walk((x) => x instanceof ctor) !== null);
  if (has(TimeoutError)) return 'timeout';
  if (has(HttpRequestError)) return 'network';
  const text = e instanceof BaseError ? `${e.message} ${e.details}` : String((e as Error | undefined)?.message ?? e);
  if (/revert|VM Exception/i.test(text)) return 'revert';
  if (e instanceof RpcRequestError || (e instanceof BaseError && e.walk((x) => x instanceof RpcRequestError) !== null)) return 'rpc';
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up/i.test(text) ? 'network' : 'rpc';
}

/**
 * `transport` with every request reported to `observe` once it ends: its
 * method, how long it took (batched requests each count their own wait) and,
 * when it failed, how. The one place the adapter's node traffic is measured:
 * every client of createChainClients goes through it, whichever call site asks.
 */
export function observedTransport(transport: Transport, chain: ChainName, observe: RpcObserver): Transport {
  return ((params) => {
    const inner = transport(params);
    const request: typeof inner.request = async (args, options) => {
      const started = performance.now();
      const report = (error?: RpcErrorKind) => {
        try {
          observe({ chain, method: args.method, seconds: (performance.now() - started) / 1000, ...(error ? { error } : {}) });
        } catch {
          // a metrics hook never fails a chain call
        }
      };
      try {
        const result: unknown = await inner.request(args, options);
        report();
        return result as never;
      } catch (e) {
        report(rpcErrorKind(e));
        throw e;
      }
    };
    return { ...inner, request };
  }) as Transport;
}
