import { ServiceError } from './base';

export const standingIntentNotFound = (standingIntentId: string): ServiceError =>
  new ServiceError('STANDING_INTENT_NOT_FOUND', 'Standing intent not found', { details: { standingIntentId } });

/** A wallet keeps one standing intent per asset: the second answers which one exists (`standingIntentId`, null if it went meanwhile). */
export const standingIntentAlreadyExists = (walletId: string, asset: string, standingIntentId: string | null): ServiceError =>
  new ServiceError('STANDING_INTENT_ALREADY_EXISTS', `The wallet already has a standing intent for ${asset}: change or delete that one`, {
    details: { walletId, asset, standingIntentId },
  });

/**
 * A backtest refused because too many run already: `scope` `account` (one
 * at a time per account) or `instance` (the instance's few at a time).
 */
export const backtestLimitExceeded = (scope: 'account' | 'instance', limit: number, retryAfterSeconds: number): ServiceError =>
  new ServiceError('BACKTEST_LIMIT_EXCEEDED', `At most ${limit} backtest${limit === 1 ? '' : 's'} at a time per ${scope}`, {
    details: { scope, limit, retryAfterSeconds },
    retryAfterSeconds,
  });
