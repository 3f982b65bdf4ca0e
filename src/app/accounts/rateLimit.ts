import type { AppDeps } from '../deps';
import type { Account } from '../../domain/types';
import { PLANS } from '../../domain/plans';

const WINDOW_MS = 60_000;

/** The state of an account's current one-minute window, as the three X-RateLimit-* headers show it. */
export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  exceeded: boolean;
}

/** Counts one request in the account's fixed one-minute window (shared by all its keys). */
export async function countRequest(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<RateState> {
  const limit = account.requestsPerMinute ?? PLANS[account.plan].requestsPerMinute;
  const now = deps.clock.now().getTime();
  const start = now - (now % WINDOW_MS);
  const reset = Math.ceil((start + WINDOW_MS) / 1000);
  const used = await deps.store.usage.increment(`rate:${account.id}:${start}`, 1, new Date(start + 2 * WINDOW_MS));
  return { limit, remaining: Math.max(0, limit - used), reset, exceeded: used > limit };
}

export function rateHeaders(s: RateState): Record<string, string> {
  return { 'X-RateLimit-Limit': String(s.limit), 'X-RateLimit-Remaining': String(s.remaining), 'X-RateLimit-Reset': String(s.reset) };
}

/** Seconds until the window resets (at least 1), for Retry-After. */
export function retryAfterSeconds(s: RateState, now: Date): number {
  return Math.max(1, s.reset - Math.floor(now.getTime() / 1000));
}
