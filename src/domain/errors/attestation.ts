import { ServiceError } from './base';

/** Where an attestation was asked for: the burn's source domain and transaction. */
export interface AttestationRef {
  sourceDomain: number;
  txHash: string;
}

/** The attestation service did not answer usefully (network, 5xx, 429): transient, the engine retries. */
export const attestationUnavailable = (ref: AttestationRef, cause?: unknown): ServiceError =>
  new ServiceError('NETWORK_ERROR', 'The attestation service is unavailable', { details: { service: 'attestation', ...ref }, cause });

/** The burn was not attested within the wait (still pending or not seen yet): transient, the engine retries. */
export const attestationTimeout = (ref: AttestationRef, lastStatus: string): ServiceError =>
  new ServiceError('TIMEOUT', `No attestation for ${ref.txHash} yet (${lastStatus})`, { details: { service: 'attestation', lastStatus, ...ref } });

/** The attestation service refused the request or answered something that is not Circle's shape: retrying will not help. */
export const attestationInvalid = (ref: Partial<AttestationRef>, reason: string): ServiceError =>
  new ServiceError('BRIDGE_FAILED', `Attestation service: ${reason}`, { details: { service: 'attestation', ...ref } });
