import { ServiceError } from './base';

export const unauthorized = (message = 'API key missing or invalid', details: Record<string, unknown> = {}): ServiceError =>
  new ServiceError('UNAUTHORIZED', message, { details });

export const forbidden = (message: string, details: Record<string, unknown> = {}): ServiceError => new ServiceError('FORBIDDEN', message, { details });

export const planRestricted = (plan: string, chain: string): ServiceError =>
  new ServiceError('PLAN_RESTRICTED', `The ${plan} plan can use test networks only; ${chain} is a main network`, {
    details: { plan, chain },
  });

export const rateLimitExceeded = (limit: number, resetAt: number, retryAfterSeconds: number): ServiceError =>
  new ServiceError('RATE_LIMIT_EXCEEDED', `Rate limit of ${limit} requests per minute exceeded`, {
    details: { limit, resetAt, retryAfterSeconds },
    retryAfterSeconds,
  });

export const creditsExhausted = (limit: number, used: number, resetsAt: string): ServiceError =>
  new ServiceError('CREDITS_EXHAUSTED', `Monthly credits exhausted (${used} of ${limit} used)`, {
    details: { limit, used, resetsAt },
  });
