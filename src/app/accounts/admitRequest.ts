import type { AppDeps } from '../deps';
import type { Principal } from './principal';
import { ServiceError } from '../../domain/errors/base';
import { forbidden, rateLimitExceeded } from '../../domain/errors/auth';
import { WRITE_OPERATIONS, type Operation } from '../../domain/plans';
import { checkApiKey, checkCachedApiKey, keyCheckError } from './authenticate';
import { countRequest, countRequestUnits, peekRate, rateHeaders, retryAfterSeconds, type RateState } from './rateLimit';
import { billedOperations, creditsOf, rateUnitsOwed } from './billedOperations';
import { readCreditHeaders, reserveCredits, type CreditReservation, type PrepaidCredits } from './credits';

export interface Admission {
  principal: Principal;
  rate: RateState;
}

/** Errors carry the rate headers too, so 401/429 answers show them where the account is known. */
function withHeaders(e: ServiceError, headers: Record<string, string>): ServiceError {
  Object.assign(e.quotaHeaders, headers);
  return e;
}

/**
 * The gate every operation passes (an HTTP request; a GraphQL operation over
 * WebSocket): authenticate the key, then count one unit in the account's rate
 * window. A key that fails the check never counts: a revoked or leaked key must
 * not be able to exhaust its account's window.
 */
export async function admitRequest(deps: Pick<AppDeps, 'store' | 'clock' | 'keyCache' | 'keyUse'>, authorization: string | undefined): Promise<Admission> {
  // A warm key is decided without an await; the window's update is then the request's one store round trip here.
  const check = checkCachedApiKey(deps, authorization) ?? (await checkApiKey(deps, authorization));
  if (!check.ok) {
    const err = keyCheckError(check.reason);
    if (check.account) withHeaders(err, rateHeaders(await peekRate(deps, check.account)));
    throw err;
  }
  const rate = await countRequest(deps, check.account);
  // The key was used (even when the window then refuses the request): noted in memory, written in batches.
  deps.keyUse?.record(check.key.id, deps.clock.now());
  if (rate.exceeded) {
    const retry = retryAfterSeconds(rate, deps.clock.now());
    // The key is good: its 429 shows the account's credits too (one read, on refusals only; none for an unlimited plan).
    throw withHeaders(rateLimitExceeded(rate.limit, rate.reset, retry), { ...rateHeaders(rate), ...(await readCreditHeaders(deps, check.account)) });
  }
  return { principal: { account: check.account, keyId: check.key.id, scopes: check.key.scopes, via: 'apiKey' }, rate };
}

/** FORBIDDEN unless the key's scopes allow `operation` (write operations need `write`). */
function assertScope(principal: Principal, operation: Operation): void {
  const needed = WRITE_OPERATIONS.has(operation) ? 'write' : 'read';
  if (!principal.scopes.includes(needed)) {
    throw forbidden(`This API key lacks the ${needed} scope`, { requiredScope: needed, operation });
  }
}

/**
 * Per operation: checks the key's scope and reserves the operation's credits.
 * Call `refund()` when the answer is not a success (credits are charged on 2xx only);
 * `usedAfter` is the month's counter after the reservation (then the refund).
 */
export async function authorizeOperation(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  principal: Principal,
  operation: Operation,
): Promise<Pick<CreditReservation, 'usedAfter'> & { refund(): Promise<void> }> {
  assertScope(principal, operation);
  // A paid read was paid for in USDC, and the dashboard's session pays only for some operations (billedOperations decides).
  const billed = billedOperations(principal, [operation]);
  if (billed.length === 0) return { usedAfter: null, refund: async () => undefined };
  const units = rateUnitsOwed(principal, creditsOf(billed));
  if (units > 0) {
    const rate = await countRequestUnits(deps, principal.account, units);
    if (rate.exceeded) throw rateLimitExceeded(rate.limit, rate.reset, retryAfterSeconds(rate, deps.clock.now()));
  }
  return reserveCredits(deps, principal.account, operation);
}

/**
 * Runs `fn` as `operation`: scope check, credits reserved (or, when
 * `prepaid`, already reserved with the whole GraphQL operation), refunded if
 * `fn` throws.
 */
export async function runOperation<T>(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  principal: Principal,
  operation: Operation,
  fn: () => Promise<T>,
  prepaid?: Pick<PrepaidCredits, 'consume'>,
): Promise<T> {
  if (prepaid) {
    // Reserved with the whole operation: a success consumes its share; what a failure leaves goes back with release().
    assertScope(principal, operation);
    const result = await fn();
    prepaid.consume(operation);
    return result;
  }
  const charge = await authorizeOperation(deps, principal, operation);
  try {
    return await fn();
  } catch (e) {
    await charge.refund();
    throw e;
  }
}
