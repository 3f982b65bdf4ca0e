import type { Account, ApiKeyRecord, IdempotencyRecord, Wallet, WalletKeyRecord } from '../domain/types';

/**
 * The store port: narrow repositories the use-cases receive. Two adapters
 * implement it (memory, mongo); one contract suite (test/contract) runs
 * against both.
 */
export interface AccountRepo {
  insert(account: Account): Promise<void>;
  get(id: string): Promise<Account | null>;
}

export interface ApiKeyRepo {
  insert(key: ApiKeyRecord): Promise<void>;
  get(id: string): Promise<ApiKeyRecord | null>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  listByAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when no such key exists. Idempotent. */
  revoke(id: string, at: string): Promise<boolean>;
}

export interface WalletRepo {
  /** Inserts; throws DuplicateError when (accountId, userId) or id already exists. */
  insert(wallet: Wallet): Promise<void>;
  getById(id: string): Promise<Wallet | null>;
  getByUserId(accountId: string, userId: string): Promise<Wallet | null>;
  countByAccount(accountId: string): Promise<number>;
}

export interface WalletKeyRepo {
  insert(record: WalletKeyRecord): Promise<void>;
  get(walletId: string): Promise<WalletKeyRecord | null>;
}

export interface UsageRepo {
  /** Atomically adds `by` to a counter and returns the new value; the counter expires at `expiresAt`. */
  increment(key: string, by: number, expiresAt: Date): Promise<number>;
  get(key: string): Promise<number>;
}

export interface IdempotencyRepo {
  /** Inserts when (scope, key) is free; returns the existing record otherwise. */
  insertIfAbsent(record: IdempotencyRecord): Promise<IdempotencyRecord | null>;
  complete(scope: string, key: string, status: number, body: unknown): Promise<void>;
  delete(scope: string, key: string): Promise<void>;
}

export interface Store {
  readonly kind: 'memory' | 'mongo';
  accounts: AccountRepo;
  apiKeys: ApiKeyRepo;
  wallets: WalletRepo;
  walletKeys: WalletKeyRepo;
  usage: UsageRepo;
  idempotency: IdempotencyRepo;
  /** Throws when the backing database is unreachable (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A unique constraint was violated; `index` names which one. */
export class DuplicateError extends Error {
  override readonly name = 'DuplicateError';
  constructor(readonly index: string) {
    super(`duplicate key on ${index}`);
  }
}
