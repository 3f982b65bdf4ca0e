import type { AppDeps } from './deps';
import type { PlanName } from '../domain/plans';
import { createAccount } from './accounts/createAccount';
import { generateApiKey, hashApiKey } from './accounts/apiKeyFormat';

/**
 * The development account: registers DEV_API_KEY (or a generated key) on
 * DEV_PLAN, once. Returns the key so the ready line can print it.
 */
export async function bootstrapDevAccount(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  params: { key?: string; plan: PlanName },
): Promise<{ accountId: string; key: string }> {
  const key = params.key ?? generateApiKey();
  const existing = await deps.store.apiKeys.findByHash(hashApiKey(key));
  if (existing) return { accountId: existing.accountId, key };
  const { account } = await createAccount(deps, { plan: params.plan, keyName: 'development', presetKey: key });
  return { accountId: account.id, key };
}
