import type { AppDeps } from '../deps';
import type { Account, ApiKeyRecord } from '../../domain/types';
import { unauthorized } from '../../domain/errors/auth';
import { API_KEY_PATTERN, bearerToken, digestsEqual, hashApiKey } from './apiKeyFormat';

/** The outcome of checking a bearer key; a revoked key still names its account (for rate headers). */
export type KeyCheck =
  | { ok: true; key: ApiKeyRecord; account: Account }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked'; account: Account | null };

/** Checks an `Authorization` header value against the stored key digests. */
export async function checkApiKey(deps: Pick<AppDeps, 'store' | 'keyCache'>, authorization: string | undefined): Promise<KeyCheck> {
  const token = bearerToken(authorization);
  if (!token) return { ok: false, reason: 'missing', account: null };
  if (!API_KEY_PATTERN.test(token)) return { ok: false, reason: 'malformed', account: null };
  const hash = hashApiKey(token);
  const key = await deps.keyCache.lookup(hash, () => deps.store.apiKeys.findByHash(hash));
  if (!key || !digestsEqual(key.hash, hash)) return { ok: false, reason: 'unknown', account: null };
  // Cached beside the key (accounts are immutable once stored): a warm request reads nothing from the store here.
  const account = await deps.keyCache.account(key.accountId, () => deps.store.accounts.get(key.accountId));
  if (!account) return { ok: false, reason: 'unknown', account: null };
  if (key.revokedAt) return { ok: false, reason: 'revoked', account };
  return { ok: true, key, account };
}

const MESSAGES: Record<Exclude<KeyCheck, { ok: true }>['reason'], string> = {
  missing: 'API key missing: send Authorization: Bearer <API_KEY>',
  malformed: 'API key malformed: expected svc_sk_ followed by 64 hexadecimal characters',
  unknown: 'API key invalid',
  revoked: 'API key revoked',
};

export const keyCheckError = (reason: keyof typeof MESSAGES) => unauthorized(MESSAGES[reason], { reason });
