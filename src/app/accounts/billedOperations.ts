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
