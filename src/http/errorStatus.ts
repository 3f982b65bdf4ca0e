import type { ErrorCode, ServiceError } from '../domain/errors/base';

/**
 * HTTP of the service's errors, in one place for every door (REST, GraphQL
 * over HTTP, the allowed-hosts guard): the status of each code, and the
 * headers and body extras a ServiceError's facts become.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_CHAIN: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  PAYMENT_INVALID: 402,
  FORBIDDEN: 403,
  PLAN_RESTRICTED: 403,
  WALLET_LIMIT_EXCEEDED: 403,
  CREDITS_EXHAUSTED: 403,
  POLICY_VIOLATION: 403,
  WALLET_NOT_FOUND: 404,
  INTENT_NOT_FOUND: 404,
  NOT_FOUND: 404,
  POLICY_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  STANDING_INTENT_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  WALLET_ALREADY_EXISTS: 409,
  STANDING_INTENT_ALREADY_EXISTS: 409,
  IDEMPOTENCY_CONFLICT: 409,
  VERSION_CONFLICT: 409,
  POLICY_IN_USE: 409,
  POLICY_CONFLICT: 409,
  INTENT_NOT_CANCELLABLE: 409,
  INTENT_CANCELLED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INSUFFICIENT_FUNDS: 422,
  BRIDGE_FAILED: 502,
  DEPOSIT_FAILED: 502,
  WITHDRAW_FAILED: 502,
  RATE_LIMIT_EXCEEDED: 429,
  FUNDING_LIMIT_EXCEEDED: 429,
  GAS_BUDGET_EXCEEDED: 429,
  BACKTEST_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  NETWORK_ERROR: 503,
  TIMEOUT: 503,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;

/** The HTTP status of `e`. */
export const errorStatus = (e: ServiceError): number => ERROR_STATUS[e.code];

/**
 * The headers `e` is answered with: the x402 offer (PAYMENT-REQUIRED) and the
 * bearer challenge of a refused or missing credential (WWW-Authenticate), a
 * failed settlement's answer (PAYMENT-RESPONSE), the
 * methods a route allows, when to try again (Retry-After), then the caller's
 * quotas as the refusal saw them.
 */
export function errorHeaders(e: ServiceError): Record<string, string> {
  const allowed = e.details.allowed;
  return {
    ...(e.paymentOffer && { 'PAYMENT-REQUIRED': e.paymentOffer.header }),
    ...((e.paymentOffer || e.code === 'UNAUTHORIZED') && { 'WWW-Authenticate': 'Bearer' }),
    ...(e.paymentSettlement && { [e.paymentSettlement.name]: e.paymentSettlement.value }),
    ...(e.code === 'METHOD_NOT_ALLOWED' && Array.isArray(allowed) && { Allow: allowed.join(', ') }),
    ...(e.retryAfterSeconds !== undefined && { 'Retry-After': String(e.retryAfterSeconds) }),
    ...e.quotaHeaders,
  };
}

/** Fields a JSON error body carries beside `{error, message, details}`: an x402 offer's v1 fields. */
export const errorBodyExtras = (e: ServiceError): Record<string, unknown> => e.paymentOffer?.v1 ?? {};
