import type { Account, Scope } from '../../domain/types';

/** Who is calling: an account through one of its API keys, a paid proof, or a person signed in to the dashboard. */
export interface Principal {
  account: Account;
  keyId: string | null;
  scopes: Scope[];
  via: 'apiKey' | 'payment' | 'session';
  /** The signed-in person and their session's id (via `session` only). */
  user?: { id: string; email: string; sessionId: string };
}

/** Session ids are watched beside key ids (keyRevocations): this prefix tells them apart. */
export const SESSION_CREDENTIAL_PREFIX = 'session:';

/**
 * What a long-lived stream opened by `principal` must watch, so it ends when
 * that credential does: its API key, or its dashboard session (sign-out or
 * expiry). Null for a paid read (nothing to revoke).
 */
export function credentialOf(principal: Principal): string | null {
  if (principal.keyId) return principal.keyId;
  return principal.user ? SESSION_CREDENTIAL_PREFIX + principal.user.sessionId : null;
}

/**
 * Whether `principal` may read a record of `accountId`: its own account's, or
 * any when it paid for this read (docs/api-guide.md, "Paying per request": a paid read names
 * the wallet or intent by its unguessable id; it sees no email or metadata).
 */
export function mayRead(principal: Principal, accountId: string): boolean {
  return principal.via === 'payment' || principal.account.id === accountId;
}
