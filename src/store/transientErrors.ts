import { MongoError, MongoNetworkError, MongoServerSelectionError } from 'mongodb';
import { ServiceError } from '../domain/errors/base';
import type { Store } from '../ports/store';

/** Server error codes a replica-set election, a step-down or a lost connection produce (the driver's retryable set). */
const TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 64]);

/** Whether a database error is one a later try can get past: network, no primary, election, write concern. */
export function isTransientStoreError(e: unknown): boolean {
  if (e instanceof MongoNetworkError || e instanceof MongoServerSelectionError) return true;
  if (!(e instanceof MongoError)) return false;
  if (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('TransientTransactionError') || e.hasErrorLabel('ResetPool')) return true;
  return typeof e.code === 'number' && TRANSIENT_CODES.has(e.code);
}

/** 503 SERVICE_UNAVAILABLE with Retry-After: what the doors answer, and what the engine retries. */
export const storeUnavailable = (cause: unknown): ServiceError =>
  new ServiceError('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', {
    details: { retryAfterSeconds: 2 },
    retryAfterSeconds: 2,
    cause,
  });

/**
 * The store with transient database errors translated to SERVICE_UNAVAILABLE
 * at the port, once, so the REST and GraphQL doors answer 503 (not a masked
 * 500) and the engine retries instead of failing an intent.
 */
export function translateTransientErrors(store: Store): Store {
  const wrapped = new Map<PropertyKey, object>();
  const wrapRepo = <R extends object>(repo: R): R =>
    new Proxy(repo, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          try {
            return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          } catch (e) {
            throw isTransientStoreError(e) ? storeUnavailable(e) : e;
          }
        };
      },
    });
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'ping') return wrapRepo({ ping: () => target.ping() }).ping;
      // Not repositories: what the server can do, and its clock (synchronous, no database call).
      if (prop === 'capabilities' || prop === 'clock') return value;
      if (value === null || typeof value !== 'object') return value;
      let repo = wrapped.get(prop);
      if (!repo) wrapped.set(prop, (repo = wrapRepo(value)));
      return repo;
    },
  });
}
