/**
 * The one error model of the service. Every failure that crosses a public
 * boundary is a ServiceError: a code, a message, details, the cause, and the
 * domain facts a door needs to answer it (when to try again, a payment offer).
 * HTTP is the doors' own: src/http/errorStatus.ts maps a ServiceError to its
 * status, headers and body extras, REST to `{error, message, details}`,
 * GraphQL to `extensions.code`. Raw library errors are translated once, at
 * the boundary, and kept as `cause`.
 */
export const ERROR_CODES = [
  'INVALID_REQUEST',
  'INVALID_CHAIN',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'PAYMENT_INVALID',
  'FORBIDDEN',
  'PLAN_RESTRICTED',
  'WALLET_LIMIT_EXCEEDED',
  'CREDITS_EXHAUSTED',
  'POLICY_VIOLATION',
  'WALLET_NOT_FOUND',
  'INTENT_NOT_FOUND',
  'NOT_FOUND',
  'POLICY_NOT_FOUND',
  'WEBHOOK_NOT_FOUND',
  'STANDING_INTENT_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'WALLET_ALREADY_EXISTS',
  'STANDING_INTENT_ALREADY_EXISTS',
  'IDEMPOTENCY_CONFLICT',
  'VERSION_CONFLICT',
  'POLICY_IN_USE',
  'POLICY_CONFLICT',
  'INTENT_NOT_CANCELLABLE',
  'INTENT_CANCELLED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INSUFFICIENT_FUNDS',
  'BRIDGE_FAILED',
  'DEPOSIT_FAILED',
  'WITHDRAW_FAILED',
  'RATE_LIMIT_EXCEEDED',
  'FUNDING_LIMIT_EXCEEDED',
  'GAS_BUDGET_EXCEEDED',
  'BACKTEST_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'NETWORK_ERROR',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
export type ErrorDetails = Record<string, unknown>;

/** What an x402 payment error offers: the v2 requirements (the encoded PAYMENT-REQUIRED value) and the v1 fields. */
export interface PaymentOffer {
  header: string;
  v1: Record<string, unknown>;
}

/** The facilitator's answer to a settlement, under the header name its x402 version gives it (PAYMENT-RESPONSE or X-PAYMENT-RESPONSE). */
export interface PaymentSettlement {
  name: string;
  value: string;
}

export interface ServiceErrorOptions {
  details?: ErrorDetails;
  cause?: unknown;
  retryAfterSeconds?: number;
  paymentOffer?: PaymentOffer;
  paymentSettlement?: PaymentSettlement;
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  /** When the caller may try again, in seconds (a rate window, a busy slot, a store coming back). */
  readonly retryAfterSeconds?: number;
  /** The payment that would be accepted instead (x402), on PAYMENT_REQUIRED and PAYMENT_INVALID. */
  readonly paymentOffer?: PaymentOffer;
  /** A settlement that failed after verifying: what the facilitator answered. */
  readonly paymentSettlement?: PaymentSettlement;
  /**
   * The caller's quotas as the refusal saw them (rate window, credits), in the
   * form every answer of the account shows them; set by the admission, which
   * owns their names. Not the error's own: the door adds them as it adds them
   * to a success.
   */
  readonly quotaHeaders: Record<string, string> = {};

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.paymentOffer !== undefined) this.paymentOffer = options.paymentOffer;
    if (options.paymentSettlement !== undefined) this.paymentSettlement = options.paymentSettlement;
  }

  /** Messages are meant for the caller, except an internal error's (masked, with a request id). */
  get expose(): boolean {
    return this.code !== 'INTERNAL_ERROR';
  }

  toJSON(): { code: ErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

/** Translates anything thrown into a ServiceError; unknown errors become INTERNAL_ERROR with the original as cause. */
export function toServiceError(e: unknown): ServiceError {
  if (e instanceof ServiceError) return e;
  return new ServiceError('INTERNAL_ERROR', 'An internal error occurred', { cause: e });
}
