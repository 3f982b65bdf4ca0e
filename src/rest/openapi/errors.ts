import { z } from './zod';
import type { ErrorCode } from '../../domain/errors/base';
import { ERROR_STATUS } from '../../http/errorStatus';

/**
 * The error answers of the document: the one error body of the service
 * (src/rest/errorBody.ts: `{error, message, details}`), what each code
 * means, and the response headers.
 */

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** One problem with one field, as details.issues lists them (src/domain/errors/request.ts FieldIssue). */
export const fieldIssueSchema = z
  .strictObject({
    path: z.string().meta({ description: 'Dotted path of the field (`metadata.$where`), a header name, or "" for the body itself' }),
    message: z.string(),
    code: z.string().optional().meta({ description: 'The validator issue code (invalid_type, too_small, unrecognized_keys, custom, …)' }),
  })
  .openapi('FieldIssue', { description: 'One problem with one field' });

/**
 * Error body: every 4xx/5xx the service answers. (`additionalProperties: true`
 * in the `then`s changes nothing in JSON Schema; Redocly's example checker
 * otherwise closes those subschemas.)
 */
export const errorSchema = z
  .object({
    error: z.enum(ERROR_CODES).meta({ description: 'Machine-readable code; each status lists the codes it carries' }),
    message: z.string().meta({ description: 'For people; 500s say only that an internal error occurred' }),
    details: z
      .record(z.string(), z.unknown())
      .meta({ description: 'Structured context: details.issues for INVALID_REQUEST, details.requestId for INTERNAL_ERROR, and per code as listed' }),
  })
  .meta({
    allOf: [
      {
        if: { properties: { error: { const: 'INVALID_REQUEST' } } },
        then: {
          properties: {
            details: {
              required: ['issues'],
              properties: { issues: { type: 'array', items: { $ref: '#/components/schemas/FieldIssue' } } },
              additionalProperties: true,
            },
          },
          additionalProperties: true,
        },
      },
      {
        if: { properties: { error: { const: 'INTERNAL_ERROR' } } },
        then: {
          properties: { details: { required: ['requestId'], properties: { requestId: { type: 'string' } }, additionalProperties: true } },
          additionalProperties: true,
        },
      },
    ],
  })
  .openapi('Error', { description: 'The error body of every failed request. Clients should branch on `error`, never on `message`.' });

/** The 402 body: the error plus the x402 v1 requirements. */
export const paymentErrorSchema = errorSchema
  .extend({
    x402Version: z.literal(1).meta({ description: 'x402 protocol version of `accepts`' }),
    accepts: z
      .array(z.record(z.string(), z.unknown()))
      .meta({ description: 'x402 v1 payment requirements, one per payment network (the v2 ones are in the PAYMENT-REQUIRED header)' }),
  })
  .openapi('PaymentError', { description: 'PAYMENT_REQUIRED or PAYMENT_INVALID, with the offer (x402 v1 in the body, v2 in the PAYMENT-REQUIRED header)' });

/** What each code means (and its details), for the response descriptions. */
export const CODE_DOCS: Record<ErrorCode, string> = {
  INVALID_REQUEST: 'the request is malformed: body, query, path parameter or header (details.issues names each)',
  INVALID_CHAIN: 'a chain is unknown, not yet active, or not one the wallet acts on (details.chain, details.field)',
  UNAUTHORIZED: 'no API key, or a malformed, unknown or revoked one (details.reason: missing, malformed, unknown, revoked)',
  PAYMENT_REQUIRED: 'a payable read without credentials: pay with x402 or send a key',
  PAYMENT_INVALID: 'the payment proof was refused (details.reason)',
  FORBIDDEN: 'the key lacks the scope the operation needs (details.requiredScope)',
  PLAN_RESTRICTED: 'the plan (or a staging deployment) cannot use this main network (details.plan, details.chain)',
  WALLET_LIMIT_EXCEEDED: "the plan's wallet limit is reached (details.limit)",
  CREDITS_EXHAUSTED: "the month's credits are spent (details.limit, details.used, details.resetsAt)",
  POLICY_VIOLATION: "the wallet's spending policy does not allow it (details.policyId, details.version, details.rule, details.limit, details.requested)",
  POLICY_NOT_FOUND: "no such policy in your account, or the wallet's own policy is gone: the wallet fails closed (details.policyId)",
  POLICY_IN_USE:
    'the policy is the own policy of some wallets, or the account policy while a wallet has none of its own: remove it from them first (details.policyId, details.walletCount, details.accountPolicy)',
  POLICY_CONFLICT: 'the account already has an account-scope policy (details.policyId)',
  INTENT_NOT_CANCELLABLE: 'the intent is completed or failed already: nothing is left to cancel (details.intentId, details.status)',
  INTENT_CANCELLED: 'never an answer: the `error` of a cancelled rebalance that left funds idle in the wallet (details.idle, per chain)',
  WALLET_NOT_FOUND: 'no such wallet in your account',
  WEBHOOK_NOT_FOUND: 'no such webhook endpoint in your account (details.webhookId)',
  STANDING_INTENT_NOT_FOUND: 'no such standing intent in your account (details.standingIntentId)',
  INTENT_NOT_FOUND: 'no such intent in your account',
  NOT_FOUND: 'no such route',
  METHOD_NOT_ALLOWED: 'the path does not take this method (Allow lists those it takes)',
  WALLET_ALREADY_EXISTS: 'this userId already has a wallet (details.walletId)',
  STANDING_INTENT_ALREADY_EXISTS: 'the wallet already has a standing intent for this asset (details.standingIntentId; details.walletId, details.asset)',
  IDEMPOTENCY_CONFLICT: 'this Idempotency-Key was used with another body, or its first request is still running',
  VERSION_CONFLICT: 'concurrent updates kept winning: read it again and retry (details.policyId)',
  PAYLOAD_TOO_LARGE: 'the body exceeds the limit (details.limitBytes); the connection is closed',
  UNSUPPORTED_MEDIA_TYPE: 'a body that is not application/json',
  INSUFFICIENT_FUNDS: 'not enough funds across the chains',
  BRIDGE_FAILED: 'the bridge failed',
  DEPOSIT_FAILED: 'the deposit failed',
  WITHDRAW_FAILED: 'the withdrawal failed',
  RATE_LIMIT_EXCEEDED: "the account's requests per minute are used up (details.limit, details.resetAt, details.retryAfterSeconds)",
  FUNDING_LIMIT_EXCEEDED: 'demo fundings per wallet or per account in 24 h are used up (details.scope, details.limit, details.retryAfterSeconds)',
  GAS_BUDGET_EXCEEDED: "the account's gas budget for 24 h is spent: the intent is not started (details.retryAfterSeconds)",
  BACKTEST_LIMIT_EXCEEDED:
    'a backtest of the account is running already, or the instance runs as many as it takes at once: nothing was replayed or charged (details.scope, details.limit, details.retryAfterSeconds)',
  INTERNAL_ERROR: 'an unexpected failure; details.requestId identifies it in the logs',
  NETWORK_ERROR: 'a chain did not answer (details.chain)',
  TIMEOUT: 'a chain answered too slowly (details.chain)',
  SERVICE_UNAVAILABLE: 'a dependency (database, chain reads) is unavailable, or the service is shutting down',
};

// ---- headers ----

interface HeaderSchema {
  type: 'string' | 'integer';
  minimum?: number;
  enum?: string[];
  pattern?: string;
  contentEncoding?: string;
}
const integer = (minimum: number): HeaderSchema => ({ type: 'integer', minimum });
const text = (more: Omit<HeaderSchema, 'type'> = {}): HeaderSchema => ({ type: 'string', ...more });

/** Response headers, as components.headers; `required` is set where they are referenced. */
export const RESPONSE_HEADERS: Record<
  | 'X-Request-Id'
  | 'X-RateLimit-Limit'
  | 'X-RateLimit-Remaining'
  | 'X-RateLimit-Reset'
  | 'X-Credits-Remaining'
  | 'Retry-After'
  | 'Idempotent-Replayed'
  | 'WWW-Authenticate'
  | 'PAYMENT-REQUIRED'
  | 'PAYMENT-RESPONSE'
  | 'X-PAYMENT-RESPONSE',
  { description: string; schema: HeaderSchema }
> = {
  'X-Request-Id': {
    description: "The request's id: the caller's X-Request-Id when it is 1-128 of A-Z a-z 0-9 . _ : -, else a new one. On every answer.",
    schema: text(),
  },
  'X-RateLimit-Limit': {
    description:
      "The account's requests per minute. On every answer once the API key is admitted, and on the 401 of a revoked key; not when no account is known (401 for a missing, malformed or unknown key, a failure before admission) nor on paid reads.",
    schema: integer(1),
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current one-minute window.', schema: integer(0) },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets.', schema: integer(0) },
  'X-Credits-Remaining': {
    description:
      "Credits left this month once this request is counted: after its own charge when it succeeded, with nothing charged when it did not (credits are spent on 2xx only), never below 0; `unlimited` when the account's plan has no monthly limit. On every answer once the API key is admitted (429 RATE_LIMIT_EXCEEDED included); not on a 401 (a revoked key learns nothing of its account's spending) nor on paid reads. GET /usage has the month's full picture.",
    schema: text({ pattern: '^(0|[1-9][0-9]*|unlimited)$' }),
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: integer(1) },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when the answer is the stored first answer to this Idempotency-Key.',
    schema: text({ enum: ['true'] }),
  },
  'WWW-Authenticate': { description: '`Bearer`: send an API key.', schema: text({ enum: ['Bearer'] }) },
  'PAYMENT-REQUIRED': {
    description: 'Base64 JSON x402 v2 PaymentRequired: x402Version 2, resource, accepts (one per payment network; 1000 atomic USDC = 0.001 USDC).',
    schema: text({ contentEncoding: 'base64' }),
  },
  'PAYMENT-RESPONSE': {
    description: 'Base64 JSON settlement {success, transaction, network, payer}, after a read paid with a v2 proof.',
    schema: text({ contentEncoding: 'base64' }),
  },
  'X-PAYMENT-RESPONSE': { description: 'The same settlement, after a read paid with a v1 proof (X-PAYMENT).', schema: text({ contentEncoding: 'base64' }) },
};

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;
