import type { Account, Scope } from '../../domain/types';

/** Who is calling: an account through one of its API keys (or, later, a paid proof). */
export interface Principal {
  account: Account;
  keyId: string | null;
  scopes: Scope[];
  via: 'apiKey' | 'payment';
}
