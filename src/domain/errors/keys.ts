import { ServiceError } from './base';

/**
 * The key provider did not answer (a PKCS#11 library error, a session lost, a
 * token removed): transient, like an RPC outage. The executor waits and
 * retries; nothing was signed.
 */
export const keyProviderUnavailable = (provider: string, cause?: unknown): ServiceError =>
  new ServiceError('NETWORK_ERROR', 'The key provider is unavailable', { details: { service: 'keyProvider', provider }, cause });

/** A signature the provider made does not hold (wrong length, out of range, or recovering to another address): never sent. */
export const signatureRefused = (address: string, reason: string): ServiceError =>
  new ServiceError('INTERNAL_ERROR', `Signature refused: ${reason}`, { details: { address, reason } });

/** No key under this wallet id or service label. */
export const keyNotFound = (keyId: string): ServiceError => new ServiceError('INTERNAL_ERROR', 'No key for wallet', { details: { walletId: keyId } });
