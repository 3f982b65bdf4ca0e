import type { AppDeps } from '../deps';
import { ServiceError } from '../../domain/errors/base';

/** Revokes a key; effective on the next request (the lookup cache entry is dropped here). */
export async function revokeApiKey(deps: Pick<AppDeps, 'store' | 'clock' | 'keyCache'>, keyId: string): Promise<void> {
  const key = await deps.store.apiKeys.get(keyId);
  if (!key) throw new ServiceError('NOT_FOUND', 'API key not found', { details: { keyId } });
  await deps.store.apiKeys.revoke(keyId, deps.clock.now().toISOString());
  deps.keyCache.delete(key.hash);
}
