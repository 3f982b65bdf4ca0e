import type { AppDeps } from '../deps';
import type { Account, ApiKeyRecord } from '../../domain/types';
import { unauthorized } from '../../domain/errors/auth';
import { API_KEY_PATTERN, bearerToken, digestsEqual, hashApiKey } from './apiKeyFormat';

/** The outcome of checking a bearer key; a revoked key still names its account (for rate headers). */
export type KeyCheck =
  { ok: true; key: ApiKeyRecord; account: Account } | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked'; account: Account | null };

/** What a key's record and its account decide (the record matched the digest; `account` null when it was not found). */
function decide(key: ApiKeyRecord, account: Account | null): KeyCheck {
  if (!account) return { ok: false, reason: 'unknown', account: null };
  if (key.revokedAt) return { ok: false, reason: 'revoked', account };
  return { ok: true, key, account };
}

/** The token of the header when it is a well-formed key, else the failed check. */
function tokenOf(authorization: string | undefined): string | Extract<KeyCheck, { ok: false }> {
  const token = bearerToken(authorization);
  if (!token) return { ok: false, reason: 'missing', account: null };
  if (!API_KEY_PATTERN.test(token)) return { ok: false, reason: 'malformed', account: null };
  return token;
}

/**
 * The check of checkApiKey when it needs no store read: the header is
 * missing or malformed, or the key and its account are both cached (a
 * revoked key is never cached). Null when the store must be read. The warm
 * path of every request, with no await.
 */
export function checkCachedApiKey(deps: Pick<AppDeps, 'keyCache'>, authorization: string | undefined): KeyCheck | null {
  const token = tokenOf(authorization);
  if (typeof token !== 'string') return token;
  const hash = hashApiKey(token);
  const key = deps.keyCache.peek(hash);
  if (!key || !digestsEqual(key.hash, hash)) return null;
  const account = deps.keyCache.peekAccount(key.accountId);
  return account ? decide(key, account) : null;
}

/** Checks an `Authorization` header value against the stored key digests. */
export async function checkApiKey(deps: Pick<AppDeps, 'store' | 'keyCache'>, authorization: string | undefined): Promise<KeyCheck> {
  const token = tokenOf(authorization);
  if (typeof token !== 'string') return token;
  const hash = hashApiKey(token);
  const key = await deps.keyCache.lookup(hash, () => deps.store.apiKeys.findByHash(hash));
  if (!key || !digestsEqual(key.hash, hash)) return { ok: false, reason: 'unknown', account: null };
  // Cached beside the key (accounts are immutable once stored): a warm request reads nothing from the store here.
  return decide(key, await deps.keyCache.account(key.accountId, () => deps.store.accounts.get(key.accountId)));
}

const MESSAGES: Record<Exclude<KeyCheck, { ok: true }>['reason'], string> = {
  missing: 'API key missing: send Authorization: Bearer <API_KEY>',
  malformed: 'API key malformed: expected svc_sk_ followed by 64 hexadecimal characters',
  unknown: 'API key invalid',
  revoked: 'API key revoked',
};

export const keyCheckError = (reason: keyof typeof MESSAGES) => unauthorized(MESSAGES[reason], { reason });
