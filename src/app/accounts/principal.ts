import type { Account, Scope } from '../../domain/types';

/** Who is calling: an account through one of its API keys, a paid proof, or a person signed in to the dashboard. */
export interface Principal {
  account: Account;
  keyId: string | null;
  scopes: Scope[];
  via: 'apiKey' | 'payment' | 'session';
  /** The signed-in person (via `session` only). */
  user?: { id: string; email: string };
}

/**
 * Whether `principal` may read a record of `accountId`: its own account's, or
 * any when it paid for this read (SPEC "Authentication" 2: a paid read names
 * the wallet or intent by its unguessable id; it sees no email or metadata).
 */
export function mayRead(principal: Principal, accountId: string): boolean {
  return principal.via === 'payment' || principal.account.id === accountId;
}
