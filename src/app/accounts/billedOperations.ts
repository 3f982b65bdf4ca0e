import { CREDIT_COST, type Operation } from '../../domain/plans';
import type { Principal } from './principal';

/**
 * What a dashboard session pays for as an API key does (credits and the
 * account's rate window): operations that make the service work after the
 * answer. A test event is a delivery the shared worker sends and retries for
 * a day; free, a session could queue them without limit. A backtest replays
 * up to 90 days of samples: free, a session could keep the process busy.
 */
export const SESSION_BILLED_OPERATIONS: ReadonlySet<Operation> = new Set<Operation>(['sendTestWebhook', 'simulateStandingIntent']);

/**
 * The operations of `operations` that `principal` pays for, decided here for
 * every front door (REST's operation(), GraphQL's chargeOperation): an API key
 * pays for all, a paid read paid in USDC already, a session pays for
 * SESSION_BILLED_OPERATIONS only.
 */
export function billedOperations(principal: Pick<Principal, 'via'>, operations: readonly Operation[]): Operation[] {
  if (principal.via === 'apiKey') return [...operations];
  if (principal.via === 'session') return operations.filter((op) => SESSION_BILLED_OPERATIONS.has(op));
  return [];
}

/** Credits `operations` cost. */
export const creditsOf = (operations: readonly Operation[]): number => operations.reduce((sum, op) => sum + CREDIT_COST[op], 0);

/**
 * Units an operation counts in the account's rate window beyond what its
 * admission counted: an API key's request counted one unit already, a
 * session's counted only in the person's own window.
 */
export function rateUnitsOwed(principal: Pick<Principal, 'via'>, cost: number): number {
  return Math.max(0, principal.via === 'apiKey' ? cost - 1 : cost);
}

/**
 * Work units (src/graphql/fieldCosts.ts) one credit buys. An operation's
 * root-field credits include this many units each (one credit's worth at
 * least, so a free field such as `usage` reads small things for nothing);
 * each further WORK_UNITS_PER_CREDIT units, or part of them, cost one credit
 * more (docs/api-guide.md, "What an operation costs").
 */
export const WORK_UNITS_PER_CREDIT = 5_000;

/** Credits an API key pays beyond its root fields' for an operation of `work` units whose root fields cost `credits`. */
export function workSurcharge(principal: Pick<Principal, 'via'>, credits: number, work: number): number {
  if (principal.via !== 'apiKey') return 0;
  const allowance = Math.max(1, credits) * WORK_UNITS_PER_CREDIT;
  return Math.ceil(Math.max(0, work - allowance) / WORK_UNITS_PER_CREDIT);
}
