import type { Client as WsClient, FormattedExecutionResult } from 'graphql-ws';
import type { components } from './generated/openapi';
import type { IntentUpdatedSubscription } from './generated/graphql/graphql';
import { IntentUpdatedDocument } from './operations';
import { ServiceApiError, retryAfterSeconds, type GraphQLErrorEntry } from './errors';
import { unwrap, type RestClient } from './rest';

/** An intent as REST answers it (GET /v1/intents/:intentId). */
export type Intent = components['schemas']['Intent'];
/** An intent as the `intentUpdated` subscription sends it (GraphQL spelling: enums in upper case, e.g. `COMPLETED`, `BASE_SEPOLIA`). */
export type WatchedIntent = IntentUpdatedSubscription['intentUpdated'];

/** True for `completed`, `failed` and `cancelled` (REST) or `COMPLETED`, `FAILED` and `CANCELLED` (GraphQL). */
export function isFinalStatus(status: string): boolean {
  const s = status.toLowerCase();
  return s === 'completed' || s === 'failed' || s === 'cancelled';
}

/** Raised by waitForIntent when `timeoutMs` passed before the intent was final. */
export class IntentWaitTimeoutError extends Error {
  override readonly name = 'IntentWaitTimeoutError';
  constructor(
    readonly intentId: string,
    /** The last answer seen (undefined if none was). */
    readonly lastSeen: Intent | undefined,
  ) {
    super(`intent ${intentId} not final after the wait's timeout (last status: ${lastSeen?.status ?? 'unknown'})`);
  }
}

export interface WaitForIntentOptions {
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal | undefined;
  /** Gives up after this long (IntentWaitTimeoutError); default: no limit. */
  timeoutMs?: number | undefined;
  /** Pause between two reads while the intent is not final (default 1000 ms). */
  intervalMs?: number | undefined;
  /** Consecutive network failures (no answer at all) tolerated before giving up (default 5). */
  maxNetworkErrors?: number | undefined;
  /** Called with every answer whose status or `updatedAt` changed. */
  onUpdate?: ((intent: Intent) => void) | undefined;
  /** Called before each pause, with its length and why: `pending` (not final yet), `retry-after` (a 429/503 said how long), `backoff` (a 429/503 without Retry-After, or no answer). */
  onWait?: ((ms: number, reason: 'pending' | 'retry-after' | 'backoff', status?: number) => void) | undefined;
}

/**
 * Polls GET /v1/intents/:intentId until the intent is `completed` or
 * `failed`, and resolves with that final intent (a failed intent resolves
 * too: look at `status` and `error`).
 *
 * - A 429 or 503 is waited out for its `Retry-After` (at least `intervalMs`;
 *   doubling from `intervalMs` up to 30 s when the answer has none) and read
 *   again; any other error answer rejects with its ServiceApiError.
 * - A request that got no answer (connection refused or reset) is tried again,
 *   up to `maxNetworkErrors` times in a row.
 * - `signal` aborts it at once (a read in flight included).
 */
export async function waitForIntent(rest: RestClient, intentId: string, o: WaitForIntentOptions = {}): Promise<Intent> {
  const interval = o.intervalMs ?? 1000;
  const maxNetworkErrors = o.maxNetworkErrors ?? 5;
  const signal = o.timeoutMs === undefined ? o.signal : anySignal(o.signal, AbortSignal.timeout(o.timeoutMs));
  let last: Intent | undefined;
  let networkErrors = 0;
  let backoff = interval;
  const timedOut = () => o.timeoutMs !== undefined && signal?.aborted === true && !o.signal?.aborted;
  try {
    for (;;) {
      signal?.throwIfAborted();
      let answer;
      try {
        answer = await rest.GET('/intents/{intentId}', { params: { path: { intentId } }, ...(signal ? { signal } : {}) });
      } catch (e) {
        signal?.throwIfAborted();
        if (++networkErrors > maxNetworkErrors) throw e;
        o.onWait?.(Math.min(backoff, 30_000), 'backoff');
        await sleep(Math.min(backoff, 30_000), signal);
        backoff *= 2;
        continue;
      }
      networkErrors = 0;
      const { response } = answer;
      if (response.status === 429 || response.status === 503) {
        const after = retryAfterSeconds(response.headers.get('retry-after'));
        const ms = after === undefined ? Math.min(backoff, 30_000) : Math.max(after * 1000, interval);
        o.onWait?.(ms, after === undefined ? 'backoff' : 'retry-after', response.status);
        await sleep(ms, signal);
        backoff *= 2;
        continue;
      }
      const intent = await unwrap(answer);
      backoff = interval;
      if (last === undefined || last.status !== intent.status || last.updatedAt !== intent.updatedAt) o.onUpdate?.(intent);
      last = intent;
      if (isFinalStatus(intent.status)) return intent;
      o.onWait?.(interval, 'pending');
      await sleep(interval, signal);
    }
  } catch (e) {
    if (timedOut()) throw new IntentWaitTimeoutError(intentId, last);
    throw e;
  }
}

export interface WatchIntentOptions {
  /** Ends the watch: the iterator stops and rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Follows an intent over the graphql-ws subscription `intentUpdated`: an
 * async iterator of its snapshots (the current one first, then every
 * persisted change in order) that ends after the final status (`COMPLETED`,
 * `FAILED` or `CANCELLED`). Breaking out of the loop, or aborting `signal`, unsubscribes.
 * Errors (INTENT_NOT_FOUND, UNAUTHORIZED, a closed socket) are thrown as
 * ServiceApiError.
 *
 * ```ts
 * for await (const intent of watchIntent(client.graphql.ws(), id)) {
 *   console.log(intent.status, intent.results?.completedSteps);
 * }
 * ```
 */
export async function* watchIntent(ws: WsClient, intentId: string, o: WatchIntentOptions = {}): AsyncGenerator<WatchedIntent, void, undefined> {
  const { signal } = o;
  signal?.throwIfAborted();
  const iterator = ws.iterate<IntentUpdatedSubscription>({ query: IntentUpdatedDocument.toString(), variables: { id: intentId } });
  const stop = () => void iterator.return?.();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      let next: IteratorResult<FormattedExecutionResult<IntentUpdatedSubscription, unknown>>;
      try {
        next = await iterator.next();
      } catch (e) {
        throw subscriptionError(e);
      }
      signal?.throwIfAborted();
      if (next.done === true)
        throw new ServiceApiError({
          code: 'SUBSCRIPTION_ENDED',
          status: 0,
          message: `the intentUpdated subscription of ${intentId} ended before a final status`,
        });
      const { data, errors } = next.value;
      if (errors !== undefined && errors.length > 0) throw ServiceApiError.fromGraphQL(errors as GraphQLErrorEntry[]);
      const intent = data?.intentUpdated;
      if (intent === undefined || intent === null) continue;
      yield intent;
      if (isFinalStatus(intent.status)) return;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    await iterator.return?.();
  }
}

/** What graphql-ws rejects with: the operation's GraphQL errors, or the socket's close event. */
function subscriptionError(e: unknown): unknown {
  if (Array.isArray(e)) return ServiceApiError.fromGraphQL(e as GraphQLErrorEntry[]);
  if (typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'number') {
    const { code, reason } = e as { code: number; reason?: string };
    const name = code === 4403 ? 'UNAUTHORIZED' : code === 4429 ? 'RATE_LIMIT_EXCEEDED' : 'CONNECTION_CLOSED';
    return new ServiceApiError({ code: name, status: 0, message: `WebSocket closed ${code}${reason ? `: ${reason}` : ''}`, details: { closeCode: code } });
  }
  return e;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function anySignal(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  return a === undefined ? b : AbortSignal.any([a, b]);
}
