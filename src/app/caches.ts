import { LRUCache } from 'lru-cache';
import type { Address } from 'viem';
import type { KeptHoldings, ReadCaches } from './deps';
import type { ChainHoldings, ChainPort } from '../ports/chain';
import type { Wallet } from '../domain/types';
import type { PlanningCache } from '../engine/planning';

/**
 * Reads that reach the chains, cached with a single flight: callers that
 * miss at the same time share one chain read (lru-cache's fetch), and an
 * expired entry is answered at once while one refresh runs behind it
 * (stale-while-revalidate). A read that fails reaches its callers as it is.
 * Yields live 15 s; balances 30 s at most, and are dropped whenever the
 * service transacts for the wallet (a drop also cancels a read in flight,
 * so it cannot put older balances back). The lifetimes can be shortened
 * (benches: bench/cacheExpiry.ts). A kept balance remembers when its read
 * began, so the engine can tell whether an intent of the wallet changed
 * anything since (planningCacheOf).
 */
export function createReadCaches(o: { ratesTtlMs?: number; holdingsTtlMs?: number; now?: () => number } = {}): ReadCaches {
  const swr = { allowStale: true } as const;
  const now = o.now ?? Date.now;
  return {
    rates: new LRUCache({ max: 1, ttl: o.ratesTtlMs ?? 15_000, ...swr, fetchMethod: (_key, _stale, { context }) => context.rates() }),
    holdings: new LRUCache({
      max: 10_000,
      ttl: o.holdingsTtlMs ?? 30_000,
      ...swr,
      fetchMethod: async (_key, _stale, { context: { chains, wallet } }): Promise<KeptHoldings> => {
        const readAt = now();
        return { holdings: await readWalletHoldings(chains, wallet), readAt };
      },
    }),
  };
}

/** The wallet's holdings on each of its chains the service runs, read from the chains now (no cache). */
export function readWalletHoldings(chains: Pick<ChainPort, 'chains' | 'holdings'>, wallet: Pick<Wallet, 'evmAddress' | 'chains'>): Promise<ChainHoldings[]> {
  return chains.holdings(
    wallet.evmAddress as Address,
    wallet.chains.filter((c) => chains.chains.includes(c)),
  );
}

/**
 * `cache.fetch(key)`, read again when an invalidation cancelled the read in
 * flight (lru-cache then rejects every waiting caller with Error('deleted')):
 * the invalidation means there is newer data, so a fresh read answers, not an
 * error. After `tries` cancelled reads in a row: undefined, which callers
 * answer SERVICE_UNAVAILABLE. A read that fails on its own still throws.
 */
export async function fetchFresh<K, V, C>(
  cache: { fetch(key: K, options: { context: C; status: LRUCache.Status<K & {}, V & {}> }): Promise<V | undefined> },
  key: K,
  context: C,
  tries = 3,
): Promise<V | undefined> {
  for (let i = 0; i < tries; i++) {
    const status: LRUCache.Status<K & {}, V & {}> = {};
    try {
      return await cache.fetch(key, { context, status });
    } catch (e) {
      if (!status.fetchAborted) throw e;
    }
  }
  return undefined;
}

/** Call after any transaction that moves a wallet's funds. */
export function invalidateWalletHoldings(caches: ReadCaches, walletId: string): void {
  caches.holdings.delete(walletId);
}

/**
 * What the engine's planning may take from these caches instead of the
 * chains: a wallet's balances and the markets' rates while they are fresh
 * (never stale ones; the engine checks the store for intents of the wallet
 * that changed since the balances' read began). It only looks: what planning
 * reads itself is not put here, so the caches hold what the read routes read.
 */
export function planningCacheOf(caches: ReadCaches): PlanningCache {
  return {
    holdings: (walletId) => caches.holdings.get(walletId, { allowStale: false }),
    rates: () => caches.rates.get('all', { allowStale: false }),
  };
}
