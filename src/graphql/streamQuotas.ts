import { PLANS, type PlanName } from '../domain/plans';

/** The plan's cap on what one account holds open (Plan.maxSockets, Plan.maxSubscriptions). */
export const quotaOf = (kind: 'socket' | 'subscription', plan: PlanName): number => (kind === 'socket' ? PLANS[plan].maxSockets : PLANS[plan].maxSubscriptions);

/**
 * Counts of what each account holds open on this instance: one account
 * cannot take the sockets and subscription slots every other account needs.
 * `take` answers false (and counts nothing) past the plan's cap.
 */
export function createStreamQuotas() {
  const held = new Map<string, number>();
  const key = (kind: 'socket' | 'subscription', accountId: string) => `${kind}\u0000${accountId}`;
  return {
    take(kind: 'socket' | 'subscription', accountId: string, plan: PlanName): boolean {
      const k = key(kind, accountId);
      const n = held.get(k) ?? 0;
      if (n >= quotaOf(kind, plan)) return false;
      held.set(k, n + 1);
      return true;
    },
    release(kind: 'socket' | 'subscription', accountId: string, count = 1): void {
      const k = key(kind, accountId);
      const n = (held.get(k) ?? 0) - count;
      if (n > 0) held.set(k, n);
      else held.delete(k);
    },
    held: (kind: 'socket' | 'subscription', accountId: string): number => held.get(key(kind, accountId)) ?? 0,
  };
}
