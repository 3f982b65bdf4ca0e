import { ServiceError } from './base';

export const intentNotFound = (intentId: string): ServiceError => new ServiceError('INTENT_NOT_FOUND', 'Intent not found', { details: { intentId } });

export const insufficientFunds = (details: Record<string, unknown>): ServiceError =>
  new ServiceError('INSUFFICIENT_FUNDS', 'Not enough funds across all chains', { details });

export const versionConflict = (id: string, expected: number): ServiceError =>
  new ServiceError('VERSION_CONFLICT', `Concurrent update of ${id}`, { details: { id, expectedVersion: expected } });

export const intentNotCancellable = (intentId: string, status: string): ServiceError =>
  new ServiceError('INTENT_NOT_CANCELLABLE', `Intent ${intentId} is ${status}: nothing is left to cancel`, { details: { intentId, status } });
