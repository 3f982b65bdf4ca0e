import type { AppDeps } from '../deps';
import type { Account } from '../../domain/types';
import { PLANS, type PlanName } from '../../domain/plans';
import { ServiceError } from '../../domain/errors/base';
import { creditMonth, creditsUsed } from './credits';
import { peekRate } from './rateLimit';

/**
 * An account's usage as it stands: the one computation behind the key
 * holders' GET /v1/usage and GraphQL `usage`, the dashboard's
 * `viewer.account.usage` and the operator's GET /admin/accounts/:id/usage.
 */
export interface AccountUsage {
  plan: PlanName;
  /** The credit month, `YYYY-MM` (UTC). */
  month: string;
  /** `limit` null: unlimited. */
  credits: { used: number; limit: number | null; resetsAt: string };
  /** `limit` null: unlimited. */
  wallets: { count: number; limit: number | null };
  requestsPerMinute: number;
  /** The current one-minute window of all the account's keys, as the X-RateLimit-* headers show it. */
  rateWindow: { limit: number; used: number; remaining: number; resetsAt: string };
}

/**
 * Reads the account's usage without counting anything: credits this month,
 * wallets, and the rate window (one read each, together). The caller's own
 * request is in the window already (admission counted it) and costs no
 * credits, so the numbers are those after this request.
 */
export async function getUsage(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<AccountUsage> {
  const plan = PLANS[account.plan];
  const { month, resetsAt } = creditMonth(deps.clock.now());
  const [used, wallets, rate] = await Promise.all([
    creditsUsed(deps, account.id, month),
    deps.store.wallets.countByAccount(account.id),
    peekRate(deps, account),
  ]);
  return {
    plan: account.plan,
    month,
    credits: { used, limit: plan.creditsPerMonth, resetsAt: resetsAt.toISOString() },
    wallets: { count: wallets, limit: plan.wallets },
    requestsPerMinute: rate.limit,
    rateWindow: { limit: rate.limit, used: rate.limit - rate.remaining, remaining: rate.remaining, resetsAt: new Date(rate.reset * 1000).toISOString() },
  };
}

/** What a key holder sees of its account's usage (GET /v1/usage, GraphQL `usage`). */
export type UsageView = Pick<AccountUsage, 'plan' | 'credits' | 'rateWindow' | 'wallets'>;

export function toUsageView(u: AccountUsage): UsageView {
  return { plan: u.plan, credits: u.credits, rateWindow: u.rateWindow, wallets: u.wallets };
}

/** An account's usage this month, with its keys (admin API). */
export async function getAccountUsage(deps: Pick<AppDeps, 'store' | 'clock'>, accountId: string) {
  const account = await deps.store.accounts.get(accountId);
  if (!account) throw new ServiceError('NOT_FOUND', 'Account not found', { details: { accountId } });
  const [usage, keys] = await Promise.all([getUsage(deps, account), deps.store.apiKeys.listByAccount(accountId)]);
  return {
    accountId,
    ...usage,
    keys: keys.map((k) => ({ id: k.id, prefix: k.prefix, name: k.name, scopes: k.scopes, createdAt: k.createdAt, revokedAt: k.revokedAt })),
  };
}
