import type { LRUCache } from 'lru-cache';
import type { Store } from '../store/port';
import type { KeyVault } from '../chain/keyVault';
import type { ApiKeyRecord } from '../domain/types';

/** What every use-case may receive; the composition root builds it once. */
export interface AppDeps {
  store: Store;
  clock: { now(): Date };
  keyVault: KeyVault;
  /** Key lookups by hash; entries are dropped on revocation so it never delays it. */
  keyCache: LRUCache<string, ApiKeyRecord>;
}
