import { ServiceError } from './base';

export const standingIntentNotFound = (standingIntentId: string): ServiceError =>
  new ServiceError('STANDING_INTENT_NOT_FOUND', 'Standing intent not found', { details: { standingIntentId } });

/**
 * A backtest refused because too many run already: `scope` `account` (one
 * at a time per account) or `instance` (the instance's few at a time).
 */
export const backtestLimitExceeded = (scope: 'account' | 'instance', limit: number, retryAfterSeconds: number): ServiceError =>
  new ServiceError('BACKTEST_LIMIT_EXCEEDED', `At most ${limit} backtest${limit === 1 ? '' : 's'} at a time per ${scope}`, {
    details: { scope, limit, retryAfterSeconds },
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
