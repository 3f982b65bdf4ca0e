import type { AppDeps } from '../deps';
import { ServiceError } from '../../domain/errors/base';
import type { AuditActor } from '../../domain/audit';
import { recordAudit } from '../audit/recordAudit';

/**
 * Revokes a key: the next request with it fails on this instance (the cache
 * entry is dropped and lookups in flight cannot restore it), streams opened
 * with it end at once, and other instances follow within KEY_CACHE_TTL_MS.
 */
export async function revokeApiKey(
  deps: Pick<AppDeps, 'store' | 'clock' | 'keyCache' | 'revocations' | 'logger'>,
  keyId: string,
  /** Who revokes it: recorded as `apikey.revoked` (the first revocation only). Absent: not recorded. */
  actor?: AuditActor,
): Promise<void> {
  const key = await deps.store.apiKeys.get(keyId);
  if (!key) throw new ServiceError('NOT_FOUND', 'API key not found', { details: { keyId } });
  await deps.store.apiKeys.revoke(keyId, deps.clock.now().toISOString());
  deps.keyCache.invalidate(key.hash);
  deps.revocations.revoked(keyId);
  if (actor && !key.revokedAt) {
    await recordAudit(deps, { accountId: key.accountId, type: 'apikey.revoked', actor, subject: { keyId }, details: { prefix: key.prefix, name: key.name } });
  }
}
