import type { PlanName } from '../domain/plans';

/** Open WebSocket connections one account may hold on one instance, per plan. */
export const MAX_SOCKETS: Readonly<Record<PlanName, number>> = { free: 5, pro: 50, enterprise: 500 };
/** Live subscriptions one account may hold on one instance (all its sockets), per plan. */
export const MAX_SUBSCRIPTIONS: Readonly<Record<PlanName, number>> = { free: 50, pro: 500, enterprise: 5_000 };

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
      if (n >= (kind === 'socket' ? MAX_SOCKETS : MAX_SUBSCRIPTIONS)[plan]) return false;
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
