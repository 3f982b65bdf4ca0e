import type { Clock } from '../domain/clock';
import { isServiceError } from '../domain/errors/base';
import { sleep } from './abort';

/** Bounded exponential back-off for transient chain errors (no jitter: one process, deterministic tests). */
export interface RetryPolicy {
  /** Tries in all, first one included. */
  attempts: number;
  /** Wait before the second try; doubles each time. */
  baseMs: number;
  /** Cap on one wait. */
  maxMs: number;
  /**
   * Cap on one wait while the step's transaction is in flight (or is a mint
   * after a confirmed burn): those are retried for as long as it takes.
   */
  inFlightMaxMs: number;
}

/** 5 tries: waits of 0.5, 1, 2 and 4 s between them; in flight, waits double up to 30 s and never give up. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 500, maxMs: 8_000, inFlightMaxMs: 30_000 };

/** NETWORK_ERROR and TIMEOUT are worth another try (docs/api-guide.md, "Errors": transient, retryable). */
export function isTransient(e: unknown): boolean {
  return isServiceError(e) && (e.code === 'NETWORK_ERROR' || e.code === 'TIMEOUT');
}

/** The wait after failed try number `attempt` (1-based). */
export function backoffMs(policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, attempt: number): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt - 1, 30));
}

/**
 * Runs `fn` until it succeeds, retrying transient errors with back-off on the
 * injected clock; the last transient error (or any other error) is thrown.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, o: { policy: RetryPolicy; clock: Clock; signal: AbortSignal }): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (e) {
      if (!isTransient(e) || attempt >= o.policy.attempts) throw e;
      await sleep(o.clock, backoffMs(o.policy, attempt), o.signal);
    }
  }
}
