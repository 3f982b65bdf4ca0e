import { ServiceError } from './base';

export const walletNotFound = (details: { userId?: string; walletId?: string }): ServiceError =>
  new ServiceError('WALLET_NOT_FOUND', 'Wallet not found', { details });

export const walletAlreadyExists = (userId: string, walletId: string): ServiceError =>
  new ServiceError('WALLET_ALREADY_EXISTS', `A wallet already exists for userId ${userId}`, {
    details: { userId, walletId },
  });

export const walletLimitExceeded = (plan: string, limit: number): ServiceError =>
  new ServiceError('WALLET_LIMIT_EXCEEDED', `The ${plan} plan allows ${limit} wallets`, { details: { plan, limit } });

export const fundingLimitExceeded = (scope: 'wallet' | 'account', limit: number, windowHours: number, retryAfterSeconds: number): ServiceError =>
  new ServiceError('FUNDING_LIMIT_EXCEEDED', `At most ${limit} demo fundings per ${scope} in any ${windowHours} h`, {
    details: { scope, limit, windowHours, retryAfterSeconds },
    retryAfterSeconds,
  });
