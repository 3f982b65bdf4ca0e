import type { AppDeps } from '../deps';
import type { Account, ApiKeyRecord, Scope } from '../../domain/types';
import type { Intent } from '../../domain/intent';
import { ServiceError } from '../../domain/errors/base';
import { issueApiKey, type IssuedApiKey } from '../accounts/createAccount';
import { revokeApiKey } from '../accounts/revokeApiKey';
import { getUsage } from '../accounts/getUsage';
import { requestHistory } from '../accounts/rateLimit';
import { getBalances } from '../balances/getBalances';
import { toWalletView, type WalletView } from '../wallets/walletView';
import type { Principal } from '../accounts/principal';
import { actorOf } from '../audit/recordAudit';

/** An API key as the dashboard lists it: never the key itself, only its display prefix. */
export interface ApiKeyView {
  id: string;
  name: string | null;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
  status: 'active' | 'revoked';
  revokedAt: string | null;
}

export const toApiKeyView = (k: ApiKeyRecord): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  scopes: k.scopes,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt ?? null,
  status: k.revokedAt ? 'revoked' : 'active',
  revokedAt: k.revokedAt,
});

/** The keys of an account, oldest first: at most MAX_KEYS_PER_ACCOUNT, the bound issueApiKey keeps. */
export async function listAccountKeys(deps: Pick<AppDeps, 'store'>, accountId: string): Promise<ApiKeyView[]> {
  const keys = await deps.store.apiKeys.listByAccount(accountId);
  return keys.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)).map(toApiKeyView);
}

/** A new key for the session's account; the answer is the only place its full value ever appears. */
export async function createAccountKey(
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>,
  principal: Principal,
  params: { name: string; scopes: Scope[] },
): Promise<{ key: string; apiKey: ApiKeyView }> {
  const accountId = principal.account.id;
  // (issueApiKey refuses an account holding MAX_KEYS_PER_ACCOUNT keys)
  const issued: IssuedApiKey = await issueApiKey(deps, { accountId, name: params.name, scopes: params.scopes, actor: actorOf(principal) ?? undefined });
  const apiKey = toApiKeyView({ ...issued, accountId, hash: '', revokedAt: null, lastUsedAt: null });
  return { key: issued.key, apiKey };
}

/**
 * Revokes one of the account's own keys, at once (revokeApiKey). Another
 * account's key id answers exactly like an unknown one: NOT_FOUND, so ids of
 * other accounts cannot be probed.
 */
export async function revokeAccountKey(
  deps: Pick<AppDeps, 'store' | 'clock' | 'keyCache' | 'revocations' | 'logger'>,
  principal: Principal,
  keyId: string,
): Promise<ApiKeyView> {
  const key = await deps.store.apiKeys.get(keyId);
  if (!key || key.accountId !== principal.account.id) throw new ServiceError('NOT_FOUND', 'API key not found', { details: { keyId } });
  await revokeApiKey(deps, keyId, actorOf(principal) ?? undefined);
  const after = await deps.store.apiKeys.get(keyId);
  return toApiKeyView(after ?? key);
}

/** Usage as the dashboard shows it: the account's usage (the same use-case as GET /v1/usage) and its request history. */
export async function accountUsage(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account) {
  return { ...(await getUsage(deps, account)), history: (minutes: number) => requestHistory(deps, account, minutes) };
}

/** Wallets the dashboard lists (newest first, at most this many), each with its total USD value. */
export const DASHBOARD_WALLETS = 100;

export interface WalletSummary extends WalletView {
  /** Null when the chains could not be read just now. */
  totalValueUsd: number | null;
}

/** The account's newest wallets with their value; a chain that does not answer leaves that wallet's value null, not the page failing. */
export async function accountWallets(deps: Pick<AppDeps, 'store' | 'chains' | 'caches'>, principal: Principal): Promise<WalletSummary[]> {
  const wallets = await deps.store.wallets.listByAccount(principal.account.id, DASHBOARD_WALLETS);
  return Promise.all(
    wallets.map(async (w) => {
      const total = await getBalances(deps, principal, w.id).then(
        (r) => r.totalValueUsd,
        () => null,
      );
      return { ...toWalletView(w), totalValueUsd: total };
    }),
  );
}

/** The account's newest intents across its wallets (at most 100). */
export async function accountIntents(deps: Pick<AppDeps, 'store'>, accountId: string, first: number): Promise<Intent[]> {
  return deps.store.intents.listByAccount(accountId, Math.min(Math.max(1, first), 100));
}

/** Every change of any of the account's intents from now on (new ones included), as they are persisted. */
export function watchAccountIntents(deps: Pick<AppDeps, 'engine'>, accountId: string, signal?: AbortSignal): AsyncIterableIterator<Intent> {
  return deps.engine.bus.subscribe({ accountId }, { signal });
}
