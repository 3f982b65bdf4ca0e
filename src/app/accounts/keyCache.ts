import { LRUCache } from 'lru-cache';
import type { Account, ApiKeyRecord } from '../../domain/types';

/**
 * How long a key lookup is trusted. Revocation on this instance is immediate
 * (invalidate); another instance sharing the store sees it within this bound.
 */
export const KEY_CACHE_TTL_MS = 5_000;

/**
 * Key lookups by key hash, which a revocation can never lose to a race, and
 * the accounts those keys belong to. The records returned are shared by every
 * caller: read them, never change them.
 */
export interface KeyCache {
  /**
   * The record for `hash`, from the cache or from `read`. The result of a
   * read that was in flight while any key was invalidated is returned but
   * not stored: it may predate the revocation.
   */
  lookup(hash: string, read: () => Promise<ApiKeyRecord | null>): Promise<ApiKeyRecord | null>;
  /**
   * The account `id`, from the cache or from `read` (a missing account is
   * not cached). Accounts are never changed once stored (the store port
   * only inserts them), so this only saves the read every request made; the
   * same bound as keys holds anyway, should a record ever be changed behind
   * the service's back.
   */
  account(id: string, read: () => Promise<Account | null>): Promise<Account | null>;
  /** The record for `hash` when it is cached (no read, no await): what lookup() would answer at once. */
  peek(hash: string): ApiKeyRecord | undefined;
  /** The account `id` when it is cached (no read, no await). */
  peekAccount(id: string): Account | undefined;
  /** Drops `hash`; lookups in flight will not put it back. */
  invalidate(hash: string): void;
}

export function createKeyCache(o: { max?: number; ttlMs?: number } = {}): KeyCache {
  const ttl = o.ttlMs ?? KEY_CACHE_TTL_MS;
  const cache = new LRUCache<string, ApiKeyRecord>({ max: o.max ?? 10_000, ttl });
  const accounts = new LRUCache<string, Account>({ max: o.max ?? 10_000, ttl });
  // Bumped on every invalidation: a lookup stores its result only if none happened while it read.
  let generation = 0;
  return {
    async lookup(hash, read) {
      const hit = cache.get(hash);
      if (hit) return hit;
      const started = generation;
      const rec = await read();
      // Revoked keys are never cached: revocation must be visible on the very next request.
      if (rec && !rec.revokedAt && generation === started) cache.set(hash, rec);
      return rec;
    },
    async account(id, read) {
      const hit = accounts.get(id);
      if (hit) return hit;
      const rec = await read();
      if (rec) accounts.set(id, rec);
      return rec;
    },
    peek: (hash) => cache.get(hash),
    peekAccount: (id) => accounts.get(id),
    invalidate(hash) {
      generation++;
      cache.delete(hash);
    },
  };
}
