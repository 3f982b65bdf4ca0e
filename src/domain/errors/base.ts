/**
 * The one error model of the service. Every failure that crosses a public
 * boundary is a ServiceError: REST maps it to `{error, message, details}`,
 * GraphQL to `extensions.code`. Raw library errors are translated once, at the
 * boundary, and kept as `cause`.
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
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorDetails = Record<string, unknown>;

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails;
  /** Extra response headers the front door must send (e.g. Retry-After). */
  readonly headers: Record<string, string>;
  /** Fields a REST body carries beside `{error, message, details}` (x402 v1 requirements). */
  readonly bodyExtras: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetails; cause?: unknown; headers?: Record<string, string>; bodyExtras?: Record<string, unknown> } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
    this.bodyExtras = options.bodyExtras ?? {};
  }

  /** 4xx messages are meant for the caller; 5xx messages are masked except for known transient codes. */
  get expose(): boolean {
    return this.status < 500 || this.code !== 'INTERNAL_ERROR';
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
