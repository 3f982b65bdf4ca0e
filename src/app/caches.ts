import { LRUCache } from 'lru-cache';
import type { ReadCaches } from './deps';

/** Yields: 15 s. Balances: 30 s at most, and invalidated by the service's own transactions. */
export function createReadCaches(): ReadCaches {
  return {
    rates: new LRUCache({ max: 1, ttl: 15_000 }),
    holdings: new LRUCache({ max: 10_000, ttl: 30_000 }),
  };
}

/** Call after any transaction that moves a wallet's funds. */
export function invalidateWalletHoldings(caches: ReadCaches, walletId: string): void {
  caches.holdings.delete(walletId);
}
