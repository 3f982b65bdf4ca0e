import type { AppDeps } from '../deps';
import { PLANS } from '../../domain/plans';
import { ServiceError } from '../../domain/errors/base';
import { creditMonth, creditsUsed } from './credits';

/** An account's usage this month: credits, wallets and keys (admin API). */
export async function getAccountUsage(deps: Pick<AppDeps, 'store' | 'clock'>, accountId: string) {
  const account = await deps.store.accounts.get(accountId);
  if (!account) throw new ServiceError('NOT_FOUND', 'Account not found', { details: { accountId } });
  const plan = PLANS[account.plan];
  const { month, resetsAt } = creditMonth(deps.clock.now());
  const [used, wallets, keys] = await Promise.all([
    creditsUsed(deps, accountId),
    deps.store.wallets.countByAccount(accountId),
    deps.store.apiKeys.listByAccount(accountId),
  ]);
  return {
    accountId,
    plan: account.plan,
    month,
    credits: { used, limit: plan.creditsPerMonth, resetsAt: resetsAt.toISOString() },
    wallets: { count: wallets, limit: plan.wallets },
    requestsPerMinute: account.requestsPerMinute ?? plan.requestsPerMinute,
    keys: keys.map((k) => ({ id: k.id, prefix: k.prefix, name: k.name, scopes: k.scopes, createdAt: k.createdAt, revokedAt: k.revokedAt })),
  };
}
