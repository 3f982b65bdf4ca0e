import type { AppDeps } from '../deps';
import type { Account } from '../../domain/types';
import { CREDIT_COST, PLANS, type Operation } from '../../domain/plans';
import { creditsExhausted } from '../../domain/errors/auth';

/** UTC calendar month of `d` as `YYYY-MM`, and the instant the next one starts. */
export function creditMonth(d: Date): { month: string; resetsAt: Date } {
  const month = d.toISOString().slice(0, 7);
  return { month, resetsAt: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) };
}

const creditKey = (accountId: string, month: string) => `credits:${accountId}:${month}`;

/**
 * Reserves `cost` credits atomically (one conditional increment that never
 * passes the limit): all of them or none, CREDITS_EXHAUSTED when they do not
 * fit. `refund(units)` gives back part or (by default) all of them.
 */
export async function reserveCreditUnits(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  account: Account,
  cost: number,
): Promise<{ refund(units?: number): Promise<void> }> {
  const limit = PLANS[account.plan].creditsPerMonth;
  const { month, resetsAt } = creditMonth(deps.clock.now());
  const key = creditKey(account.id, month);
  // Counters live a month past their reset so usage stays reportable.
  const expires = new Date(resetsAt.getTime() + 31 * 86_400_000);
  if (cost > 0) {
    if (limit === null) {
      await deps.store.usage.increment(key, cost, expires);
    } else if ((await deps.store.usage.incrementIfAtMost(key, cost, limit, expires)) === null) {
      // Refused in one conditional update: nothing was added, so nothing to give back (and no crash can lose it).
      throw creditsExhausted(limit, await deps.store.usage.get(key), resetsAt.toISOString());
    }
  }
  let left = cost;
  return {
    async refund(units = left) {
      const back = Math.min(units, left);
      if (back <= 0) return;
      left -= back;
      await deps.store.usage.increment(key, -back, expires);
    },
  };
}

/** Reserves one operation's credits; the refund gives them all back (the answer was not 2xx). */
export async function reserveCredits(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  account: Account,
  operation: Operation,
): Promise<{ refund(): Promise<void> }> {
  const reserved = await reserveCreditUnits(deps, account, CREDIT_COST[operation]);
  return { refund: () => reserved.refund() };
}

/** Credits reserved for several operations at once (a GraphQL operation's root fields): each success consumes its share. */
export interface PrepaidCredits {
  consume(operation: Operation): void;
  /** Gives back what no success consumed (once; later calls do nothing). */
  release(): Promise<void>;
}

/**
 * Reserves the credits of `operations` in one conditional update, all or
 * nothing (CREDITS_EXHAUSTED, nothing spent, when they do not fit), so a
 * batch never burns part of the month and then stops. Credits are spent on
 * successes only: `release()` returns the rest.
 */
export async function prepayCredits(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account, operations: readonly Operation[]): Promise<PrepaidCredits> {
  const cost = operations.reduce((sum, op) => sum + CREDIT_COST[op], 0);
  const reserved = await reserveCreditUnits(deps, account, cost);
  let consumed = 0;
  let released = false;
  return {
    consume(op) {
      consumed += CREDIT_COST[op];
    },
    async release() {
      if (released) return;
      released = true;
      await reserved.refund(Math.max(0, cost - consumed));
    },
  };
}

/** Credits used this month. */
export async function creditsUsed(deps: Pick<AppDeps, 'store' | 'clock'>, accountId: string): Promise<number> {
  return deps.store.usage.get(creditKey(accountId, creditMonth(deps.clock.now()).month));
}
