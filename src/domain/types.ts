import type { ChainName } from './chains';
import type { PlanName } from './plans';

export type Scope = 'read' | 'write';
export type ChainType = 'ethereum' | 'tron';

export interface Account {
  id: string;
  plan: PlanName;
  /** Custom per-minute limit (enterprise); the plan's figure when absent. */
  requestsPerMinute?: number;
  /**
   * Whether a paid read (x402, no API key) may look up this account's wallets
   * by a user id that is an e-mail address. Off when absent: such a lookup
   * would sell the mapping from a person's e-mail to their address.
   */
  paidEmailLookups?: boolean;
  createdAt: string;
}

/** An API key at rest: only the SHA-256 of the key and a display prefix are kept. */
export interface ApiKeyRecord {
  id: string;
  accountId: string;
  hash: string;
  prefix: string;
  name: string | null;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
  /** When the key last admitted a request (recorded in batches, so up to a flush interval behind). */
  lastUsedAt?: string | null;
}

/** A person who signs in to the dashboard: one OpenID Connect identity (issuer + subject), one account. */
export interface User {
  id: string;
  issuer: string;
  subject: string;
  email: string;
  accountId: string;
  createdAt: string;
  lastSignInAt: string;
}

/** A dashboard session: only the SHA-256 of its token is kept (`id`), like API keys. */
export interface SessionRecord {
  id: string;
  userId: string;
  accountId: string;
  email: string;
  createdAt: string;
  expiresAt: string;
}

export interface Wallet {
  id: string;
  accountId: string;
  userId: string;
  address: string;
  /** EVM address behind the wallet (for tron wallets `address` is base58, this is the hex form). */
  evmAddress: string;
  chainType: ChainType;
  chains: ChainName[];
  email: string | null;
  metadata: Record<string, unknown>;
  /** The wallet's own spending policy (else its account's account-scope policy governs it, if any). */
  policyId?: string | null;
  createdAt: string;
}

/**
 * Where a wallet's private key is. `local` (the default when absent): the
 * key encrypted by the key vault, never leaving it decrypted. `pkcs11`: the
 * key lives in the token under `keyId`; no ciphertext is stored.
 */
export interface WalletKeyRecord {
  walletId: string;
  address: string;
  provider?: 'local' | 'pkcs11';
  /** pkcs11: the key's CKA_LABEL / CKA_ID in the token. */
  keyId?: string;
  /** local: base64 of iv(12) | tag(16) | ciphertext */
  ciphertext?: string;
  /** Version id of the master key that encrypted it (absent on records older than versions: the current key). */
  keyVersion?: string;
  createdAt: string;
}

export interface IdempotencyRecord {
  scope: string;
  key: string;
  requestHash: string;
  /** 0 while the first request runs, then its HTTP status. */
  status: number;
  body: unknown;
  /** Who is running it (status 0): a random token per attempt. */
  owner?: string;
  /** Until when the owner's claim holds; past it, a retry of the same request may take the record over. */
  lockedUntil?: string;
  createdAt: string;
  expiresAt: string;
}
