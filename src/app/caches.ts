import { LRUCache } from 'lru-cache';
import type { Address } from 'viem';
import type { ReadCaches } from './deps';

/**
 * Reads that reach the chains, cached with a single flight: callers that
 * miss at the same time share one chain read (lru-cache's fetch), and an
 * expired entry is answered at once while one refresh runs behind it
 * (stale-while-revalidate). A read that fails reaches its callers as it is.
 * Yields live 15 s; balances 30 s at most, and are dropped whenever the
 * service transacts for the wallet (a drop also cancels a read in flight,
 * so it cannot put older balances back).
 */
export function createReadCaches(): ReadCaches {
  const swr = { allowStale: true } as const;
  return {
    rates: new LRUCache({ max: 1, ttl: 15_000, ...swr, fetchMethod: (_key, _stale, { context }) => context.rates() }),
    holdings: new LRUCache({
      max: 10_000,
      ttl: 30_000,
      ...swr,
      fetchMethod: (_key, _stale, { context: { chains, wallet } }) =>
        chains.holdings(
          wallet.evmAddress as Address,
          wallet.chains.filter((c) => chains.chains.includes(c)),
        ),
    }),
  };
}

/** Call after any transaction that moves a wallet's funds. */
export function invalidateWalletHoldings(caches: ReadCaches, walletId: string): void {
  caches.holdings.delete(walletId);
}
