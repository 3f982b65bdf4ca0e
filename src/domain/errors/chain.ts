import { ServiceError } from './base';

export const invalidChain = (chain: string, details: Record<string, unknown> = {}): ServiceError =>
  new ServiceError('INVALID_CHAIN', `Chain ${chain} is not supported`, { details: { chain, ...details } });

export const unsupportedAsset = (asset: string, chain: string): ServiceError =>
  new ServiceError('INVALID_REQUEST', `${asset} is not supported on ${chain}`, {
    details: { issues: [{ path: 'asset', message: `${asset} is not supported on ${chain}` }], asset, chain },
  });

export const networkError = (chain: string, cause?: unknown): ServiceError =>
  new ServiceError('NETWORK_ERROR', `Network error talking to ${chain}`, { details: { chain }, cause });

export const timeoutError = (chain: string, cause?: unknown): ServiceError =>
  new ServiceError('TIMEOUT', `Timed out talking to ${chain}`, { details: { chain }, cause });
