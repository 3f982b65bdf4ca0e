import type { AppDeps } from '../deps';
import type { Account } from '../../domain/types';
import { CREDIT_COST, PLANS, type Operation } from '../../domain/plans';
import { creditsExhausted } from '../../domain/errors/auth';
import type { ServiceError } from '../../domain/errors/base';

/** UTC calendar month of `d` as `YYYY-MM`, and the instant the next one starts. */
export function creditMonth(d: Date): { month: string; resetsAt: Date } {
  const m = monthOf(d.getTime());
  return { month: m.month, resetsAt: new Date(m.end) };
}

/**
 * The month last asked for: every request of a month asks for the same one,
 * computed once, with what its counters need (read them, never change them):
 * the instant the counters expire, and each account's counter key (one per
 * account that spent credits this month; the store's map hashes the same
 * string each time).
 */
interface Month {
  start: number;
  end: number;
  month: string;
  /** Counters live a month past their reset so usage stays reportable. */
  expires: Date;
  keys: Map<string, string>;
}
let lastMonth: Month = { start: 0, end: 0, month: '', expires: new Date(0), keys: new Map() };
function monthOf(ms: number): Month {
  if (ms >= lastMonth.start && ms < lastMonth.end) return lastMonth;
  const d = new Date(ms);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  const m = { start, end, month: d.toISOString().slice(0, 7), expires: new Date(end + 31 * 86_400_000), keys: new Map<string, string>() };
  // (a clock that jumps back, or a request of another month, only recomputes)
  lastMonth = m;
  return m;
}

const creditKey = (accountId: string, month: string) => `credits:${accountId}:${month}`;

/** The account's counter key in `m`. */
function creditKeyIn(m: Month, accountId: string): string {
  let key = m.keys.get(accountId);
  if (key === undefined) m.keys.set(accountId, (key = creditKey(accountId, m.month)));
  return key;
}

/** Credits reserved for one operation, to be given back (part or all) when it does not succeed. */
export interface CreditReservation {
  /** Gives back `units` of what was reserved (all of it by default); once given back, never again. */
  refund(units?: number): Promise<void>;
  /**
   * The month's counter as this reservation last saw it: the value the
   * reservation's own increment returned, then the refund's. Null when it
   * wrote nothing (a cost of 0, or a caller that pays no credits). It is
   * what X-Credits-Remaining is computed from, so that header costs no read.
   */
  readonly usedAfter: number | null;
}

/**
 * Reserves `cost` credits atomically (one conditional increment that never
 * passes the limit): all of them or none, CREDITS_EXHAUSTED when they do not
 * fit. `refund(units)` gives back part or (by default) all of them. A cost of
 * 0 touches nothing and always fits (an exhausted account still reads its
 * usage).
 */
export async function reserveCreditUnits(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account, cost: number): Promise<CreditReservation> {
  const limit = PLANS[account.plan].creditsPerMonth;
  const m = monthOf(deps.clock.now().getTime());
  const key = creditKeyIn(m, account.id);
  const expires = m.expires;
  let usedAfter: number | null = null;
  if (cost > 0) {
    usedAfter = limit === null ? await deps.store.usage.increment(key, cost, expires) : await deps.store.usage.incrementIfAtMost(key, cost, limit, expires);
    if (usedAfter === null) {
      // Refused in one conditional update: nothing was added, so nothing to give back (and no crash can lose it).
      const used = await deps.store.usage.get(key);
      throw withCreditHeaders(creditsExhausted(limit!, used, new Date(m.end).toISOString()), account, used);
    }
  }
  let left = cost;
  return {
    get usedAfter() {
      return usedAfter;
    },
    async refund(units = left) {
      const back = Math.min(units, left);
      if (back <= 0) return;
      left -= back;
      usedAfter = await deps.store.usage.increment(key, -back, expires);
    },
  };
}

/** Reserves one operation's credits; the refund gives them all back (the answer was not 2xx). */
export function reserveCredits(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  account: Account,
  operation: Operation,
): Promise<Pick<CreditReservation, 'usedAfter'> & { refund(): Promise<void> }> {
  return reserveCreditUnits(deps, account, CREDIT_COST[operation]);
}

/** Credits reserved for several operations at once (a GraphQL operation's root fields): each success consumes its share. */
export interface PrepaidCredits {
  /** A success of `operation`: its credits are spent, if they were reserved (an operation the caller does not pay for spends none). Answers the credits spent. */
  consume(operation: Operation): number;
  /** Gives back what no success consumed (once; later calls do nothing). */
  release(): Promise<void>;
}

/**
 * Reserves the credits of `operations` in one conditional update, all or
 * nothing (CREDITS_EXHAUSTED, nothing spent, when they do not fit), so a
 * batch never burns part of the month and then stops. Credits are spent on
 * successes only: `release()` returns the rest. `surcharge` (credits for the
 * work the operation reads beyond its allowance, billedOperations.ts
 * workSurcharge) is spent with the first success, given back when none.
 */
export async function prepayCredits(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  account: Account,
  operations: readonly Operation[],
  surcharge = 0,
): Promise<PrepaidCredits> {
  const cost = operations.reduce((sum, op) => sum + CREDIT_COST[op], 0) + surcharge;
  const reserved = await reserveCreditUnits(deps, account, cost);
  // How many of each operation were paid for: a success consumes one of its own, never another's.
  const unspent = new Map<Operation, number>();
  for (const op of operations) unspent.set(op, (unspent.get(op) ?? 0) + 1);
  let consumed = 0;
  let surchargeLeft = surcharge;
  let released = false;
  return {
    consume(op) {
      const left = unspent.get(op) ?? 0;
      if (left === 0) return 0;
      unspent.set(op, left - 1);
      const spent = CREDIT_COST[op] + surchargeLeft;
      surchargeLeft = 0;
      consumed += spent;
      return spent;
    },
    async release() {
      if (released) return;
      released = true;
      await reserved.refund(Math.max(0, cost - consumed));
    },
  };
}

/** Credits used this month (or in `month`, `YYYY-MM`). */
export async function creditsUsed(deps: Pick<AppDeps, 'store' | 'clock'>, accountId: string, month = creditMonth(deps.clock.now()).month): Promise<number> {
  return deps.store.usage.get(creditKey(accountId, month));
}

/**
 * The header every `/v1` answer to an admitted key carries: the credits left
 * this month once this request's own charge (or refund) is counted, never
 * below 0; `unlimited` when the plan has no monthly limit (a header that is
 * always there for a known account, rather than one whose absence would mean
 * either "unlimited" or "no account").
 */
export const CREDITS_REMAINING_HEADER = 'X-Credits-Remaining';

/** X-Credits-Remaining for `account` with `used` credits spent this month (`used` is not needed when the plan is unlimited). */
export function creditHeaders(account: Account, used: number | null): Record<string, string> {
  const limit = PLANS[account.plan].creditsPerMonth;
  if (limit === null) return { [CREDITS_REMAINING_HEADER]: 'unlimited' };
  return used === null ? {} : { [CREDITS_REMAINING_HEADER]: String(Math.max(0, limit - used)) };
}

/** X-Credits-Remaining read from the store: one read, and none for an unlimited plan. For answers no reservation saw. */
export async function readCreditHeaders(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<Record<string, string>> {
  if (PLANS[account.plan].creditsPerMonth === null) return creditHeaders(account, null);
  return creditHeaders(account, await creditsUsed(deps, account.id));
}

/** Puts X-Credits-Remaining on an error, so its answer shows the credits as the refusal saw them. */
function withCreditHeaders(e: ServiceError, account: Account, used: number): ServiceError {
  Object.assign(e.quotaHeaders, creditHeaders(account, used));
  return e;
}
