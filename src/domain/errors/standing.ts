import { ServiceError } from './base';

export const standingIntentNotFound = (standingIntentId: string): ServiceError =>
  new ServiceError('STANDING_INTENT_NOT_FOUND', 'Standing intent not found', { details: { standingIntentId } });
