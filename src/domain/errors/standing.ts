import { ServiceError } from './base';

export const standingIntentNotFound = (standingIntentId: string): ServiceError =>
  new ServiceError('STANDING_INTENT_NOT_FOUND', 'Standing intent not found', { details: { standingIntentId } });

/** A wallet keeps one standing intent per asset: the second answers which one exists (`standingIntentId`, null if it went meanwhile). */
export const standingIntentAlreadyExists = (walletId: string, asset: string, standingIntentId: string | null): ServiceError =>
  new ServiceError('STANDING_INTENT_ALREADY_EXISTS', `The wallet already has a standing intent for ${asset}: change or delete that one`, {
    details: { walletId, asset, standingIntentId },
  });
