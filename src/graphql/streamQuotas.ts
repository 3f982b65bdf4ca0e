import { GraphQLError, type ExecutionResult } from 'graphql';
import { PLANS, type PlanName } from '../domain/plans';
import type { Principal } from '../app/accounts/principal';

/** The plan's cap on what one account holds open (Plan.maxSockets, Plan.maxSubscriptions). */
export const quotaOf = (kind: 'socket' | 'subscription', plan: PlanName): number => (kind === 'socket' ? PLANS[plan].maxSockets : PLANS[plan].maxSubscriptions);

/**
 * Counts of what each account holds open on this instance: one account
 * cannot take the sockets and subscription slots every other account needs.
 * `take` answers false (and counts nothing) past the plan's cap. One instance
 * serves every transport (the front doors make it once), so a subscription
 * over SSE and one over WebSocket take from the same slots.
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

export type StreamQuotas = ReturnType<typeof createStreamQuotas>;

/** A subscription slot held: `release` gives it back (once; later calls do nothing). */
export interface SubscriptionSlot {
  release(): void;
}

/**
 * The one gate of a subscription starting, whatever its transport (WebSocket,
 * SSE, anything added later): one of the account's live-subscription slots,
 * or the RATE_LIMIT_EXCEEDED error to answer instead (nothing started).
 */
export function openSubscription(quotas: StreamQuotas, principal: Pick<Principal, 'account'>): SubscriptionSlot | GraphQLError {
  const { id, plan } = principal.account;
  if (!quotas.take('subscription', id, plan)) {
    const max = quotaOf('subscription', plan);
    return new GraphQLError(`Too many live subscriptions for this account (${max} on its plan): complete some first`, {
      extensions: { code: 'RATE_LIMIT_EXCEEDED', maxSubscriptions: max },
    });
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      quotas.release('subscription', id);
    },
  };
}

type Stream = AsyncIterableIterator<ExecutionResult>;

/** `stream`, giving `slot` back when it ends, whichever way: its last result, `return()` (the client went away) or `throw()`. */
export function holdingSlot(stream: AsyncIterable<ExecutionResult>, slot: SubscriptionSlot): Stream {
  const source = stream[Symbol.asyncIterator]();
  const it: Stream = {
    async next() {
      try {
        const r = await source.next();
        if (r.done) slot.release();
        return r;
      } catch (e) {
        slot.release();
        throw e;
      }
    },
    async return(value?: unknown) {
      slot.release();
      return (await source.return?.(value)) ?? { value: undefined, done: true };
    },
    async throw(e?: unknown) {
      slot.release();
      if (source.throw) return source.throw(e);
      throw e;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
