import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi';
import { ServiceApiError } from './errors';
import { remember } from './responses';

/** The typed REST client: openapi-fetch over the service's OpenAPI document (`paths` relative to /v1). */
export type RestClient = Client<paths>;

/** A fetch that takes a Request (what openapi-fetch calls). */
export type FetchLike = (input: Request) => Promise<Response>;

/**
 * The POST operations that honour `Idempotency-Key` (the document's
 * IdempotencyKey parameter; test/unit/sdk/idempotency.test.ts checks the list
 * against it). The SDK sends a random UUID on these unless one is given.
 */
export const IDEMPOTENT_POSTS: ReadonlySet<string> = new Set(['/wallets', '/intents', '/standing-intents']);

export interface RestClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:3000` (the client adds `/v1`). */
  baseUrl: string;
  /** An API key (`svc_sk_…`), sent as `Authorization: Bearer`. Without one, reads can be paid over x402 (`fetch` from createX402Fetch). */
  apiKey?: string | undefined;
  /** The fetch to send with (default: globalThis.fetch). */
  fetch?: FetchLike | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Makes the Idempotency-Key of a POST (default: crypto.randomUUID). */
  newIdempotencyKey?: (() => string) | undefined;
}

/** The service's origin without a trailing slash or `/v1`. */
export function originOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * The typed REST client (openapi-fetch): every path, parameter, body and
 * answer typed from the OpenAPI document. Adds `Authorization` when an API key
 * is given and an `Idempotency-Key` (a random UUID) to POST /wallets and POST
 * /intents unless the call sets one. Answers are returned as openapi-fetch
 * returns them (`{ data, error, response }`); `unwrap` turns them into the
 * data or a ServiceApiError.
 *
 * ```ts
 * const rest = createRestClient({ baseUrl: 'http://127.0.0.1:3000', apiKey });
 * const { data, error } = await rest.GET('/yields', { params: { query: { asset: 'USDC' } } });
 * ```
 */
export function createRestClient(o: RestClientOptions): RestClient {
  const headers: Record<string, string> = { ...o.headers };
  if (o.apiKey !== undefined) headers.Authorization = `Bearer ${o.apiKey}`;
  const fetchImpl: FetchLike = o.fetch ?? ((request) => globalThis.fetch(request));
  const client = createFetchClient<paths>({ baseUrl: `${originOf(o.baseUrl)}/v1`, headers, fetch: fetchImpl });
  client.use(idempotencyKeys(o.newIdempotencyKey ?? (() => globalThis.crypto.randomUUID())));
  return client;
}

/** The Idempotency-Key each answer's request was sent with. */
const sentKeys = new WeakMap<Response, string>();

function idempotencyKeys(newKey: () => string): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (request.method === 'POST' && IDEMPOTENT_POSTS.has(schemaPath) && !request.headers.has('idempotency-key')) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
    onResponse({ request, response }) {
      const key = request.headers.get('idempotency-key');
      if (key !== null) sentKeys.set(response, key);
      return undefined;
    },
  };
}

/** The Idempotency-Key the request behind this answer was sent with (POSTs of createRestClient). */
export function idempotencyKeyOf(response: Response): string | undefined {
  return sentKeys.get(response);
}

/** What openapi-fetch answers. */
export interface FetchAnswer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful answer (remembered for `responseOf`), or a
 * ServiceApiError carrying the service's code, status, message, details,
 * request id and the Idempotency-Key the request was sent with.
 */
export async function unwrap<T>(answer: Promise<FetchAnswer<T>> | FetchAnswer<T>): Promise<T> {
  const { data, error, response } = await answer;
  const idempotencyKey = sentKeys.get(response);
  if (!response.ok || data === undefined) throw ServiceApiError.fromResponse(response, error ?? data, { idempotencyKey });
  return remember(data, response);
}

/** unwrap for an answer without a body (204): resolves when it succeeded, else the same ServiceApiError. */
export async function unwrapEmpty(answer: Promise<FetchAnswer<unknown>> | FetchAnswer<unknown>): Promise<void> {
  const { error, response } = await answer;
  if (!response.ok) throw ServiceApiError.fromResponse(response, error, { idempotencyKey: sentKeys.get(response) });
}
