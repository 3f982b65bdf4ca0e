import type { components } from './generated/openapi';

/** The error codes the REST API documents (the `error` field of every failed answer). */
export type ErrorCode = components['schemas']['Error']['error'];

/** A GraphQL error as the service formats it (`extensions.code` is the REST `error` code). */
export interface GraphQLErrorEntry {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface ServiceApiErrorInit {
  code: ErrorCode | (string & {});
  status: number;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string | undefined;
  retryAfterSeconds?: number | undefined;
  idempotencyKey?: string | undefined;
  graphqlErrors?: readonly GraphQLErrorEntry[] | undefined;
  response?: Response | undefined;
}

/**
 * An error answered by the service, over REST or GraphQL: `code` is the
 * service's `error` code (`WALLET_NOT_FOUND`, `INVALID_REQUEST`, …; GraphQL's
 * `extensions.code`), `status` the HTTP status, `details` the structured
 * context (`details.issues` for INVALID_REQUEST), `requestId` the
 * `X-Request-Id` to quote to support.
 *
 * Branch on `code`, never on `message`:
 *
 * ```ts
 * try {
 *   await client.wallets.get('nobody');
 * } catch (e) {
 *   if (e instanceof ServiceApiError && e.code === 'WALLET_NOT_FOUND') { … }
 *   else throw e;
 * }
 * ```
 */
export class ServiceApiError extends Error {
  override readonly name = 'ServiceApiError';
  /** The service's error code (REST `error`, GraphQL `extensions.code`). */
  readonly code: ErrorCode | (string & {});
  /** The HTTP status (200 for a GraphQL error in a 200 answer, 0 for a WebSocket that closed). */
  readonly status: number;
  /** Structured context from the service (`{}` when none). */
  readonly details: Record<string, unknown>;
  /** The answer's X-Request-Id (or `details.requestId`), when there is one. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (Retry-After on 429 and 503), when it did. */
  readonly retryAfterSeconds: number | undefined;
  /** The Idempotency-Key the request was sent with: send the same again to retry safely. */
  readonly idempotencyKey: string | undefined;
  /** Every GraphQL error of the answer, for GraphQL requests. */
  readonly graphqlErrors: readonly GraphQLErrorEntry[] | undefined;
  /** The HTTP answer (its body already read). */
  readonly response: Response | undefined;

  constructor(init: ServiceApiErrorInit) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.idempotencyKey = init.idempotencyKey;
    this.graphqlErrors = init.graphqlErrors;
    this.response = init.response;
  }

  /** The error of a failed REST answer; `body` is its parsed JSON (or text) when already read. */
  static fromResponse(response: Response, body: unknown, o: { idempotencyKey?: string | undefined } = {}): ServiceApiError {
    const b = isRecord(body) ? body : {};
    const details = isRecord(b.details) ? b.details : {};
    return new ServiceApiError({
      code: typeof b.error === 'string' ? b.error : `HTTP_${response.status}`,
      status: response.status,
      message: typeof b.message === 'string' ? b.message : typeof body === 'string' && body !== '' ? body : `HTTP ${response.status}`,
      details,
      requestId: response.headers.get('x-request-id') ?? (typeof details.requestId === 'string' ? details.requestId : undefined),
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
      idempotencyKey: o.idempotencyKey,
      response,
    });
  }

  /** The error of a GraphQL answer with `errors` (the first error names the code). */
  static fromGraphQL(errors: readonly GraphQLErrorEntry[], response?: Response): ServiceApiError {
    const first = errors[0];
    const { code, ...details } = first?.extensions ?? {};
    return new ServiceApiError({
      code: typeof code === 'string' ? code : 'GRAPHQL_ERROR',
      status: response?.status ?? 200,
      message: first?.message ?? 'GraphQL error',
      details,
      requestId: response?.headers.get('x-request-id') ?? undefined,
      retryAfterSeconds: retryAfterSeconds(response?.headers.get('retry-after') ?? null),
      graphqlErrors: errors,
      response,
    });
  }
}

/** True when `e` is a ServiceApiError (with this `code`, when given). */
export function isServiceApiError(e: unknown, code?: ErrorCode | (string & {})): e is ServiceApiError {
  return e instanceof ServiceApiError && (code === undefined || e.code === code);
}

/** Retry-After in seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
