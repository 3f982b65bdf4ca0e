import type { ChainName } from './chains';
import { networkError, timeoutError } from './errors/chain';

/**
 * Sandbox fault kinds of docs/operations.md: transport faults of a chain's node,
 * mined reverts, failing attestation requests for burns on a chain, and
 * failing intent writes of the store (`store-error` ignores the chain).
 */
export const FAULT_KINDS = ['rpc-error', 'timeout', 'bridge-revert', 'deposit-revert', 'attestation-error', 'store-error'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Faults registered through the sandbox admin API; the chain adapter consumes
 * them on its next calls so the engine can be tested against real failures.
 */
export class FaultRegistry {
  private readonly counts = new Map<string, number>();

  register(chain: ChainName, kind: FaultKind, count: number): void {
    this.counts.set(`${chain}:${kind}`, (this.counts.get(`${chain}:${kind}`) ?? 0) + count);
  }

  /** True (and one fewer left) when a fault of `kind` is pending on `chain`. */
  take(chain: ChainName, kind: FaultKind): boolean {
    const key = `${chain}:${kind}`;
    const n = this.counts.get(key) ?? 0;
    if (n <= 0) return false;
    if (n === 1) this.counts.delete(key);
    else this.counts.set(key, n - 1);
    return true;
  }

  /** True (and one fewer left) when a fault of `kind` is pending on any chain. */
  takeAny(kind: FaultKind): boolean {
    for (const key of this.counts.keys()) {
      const [chain, k] = key.split(':') as [ChainName, FaultKind];
      if (k === kind && this.take(chain, kind)) return true;
    }
    return false;
  }

  /** Throws the pending transport fault of `chain`, if any (used at the start of every node call). */
  throwTransportFault(chain: ChainName): void {
    if (this.take(chain, 'rpc-error')) throw networkError(chain, new Error('injected rpc-error'));
    if (this.take(chain, 'timeout')) throw timeoutError(chain, new Error('injected timeout'));
  }

  pending(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
