import { ServiceError } from '../../domain/errors/base';
import type { ErrorCode, ErrorDetails } from '../../domain/errors/base';
import type { Step } from '../../domain/intent';

const FAILURE_CODE: Record<Step['type'], ErrorCode> = { bridge: 'BRIDGE_FAILED', deposit: 'DEPOSIT_FAILED', withdraw: 'WITHDRAW_FAILED' };

/** The error of a failed step: BRIDGE_FAILED / DEPOSIT_FAILED / WITHDRAW_FAILED with the step's 1-based position. */
export function stepFailed(step: Step, reason: string, details: ErrorDetails = {}): ServiceError {
  const position = step.index + 1;
  return new ServiceError(FAILURE_CODE[step.type], `Step ${position} (${step.type}) failed: ${reason}`, {
    details: { step: position, type: step.type, chain: step.chain, ...details },
  });
}
