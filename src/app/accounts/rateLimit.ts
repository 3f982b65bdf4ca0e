import type { AppDeps } from '../deps';
import type { Account } from '../../domain/types';
import { PLANS } from '../../domain/plans';

const WINDOW_MS = 60_000;
/**
 * An account's per-minute counters are kept for a day: they are its request
 * history (the dashboard's chart), so the history costs no write of its own.
 */
export const HISTORY_MINUTES = 24 * 60;

/** The state of an account's current one-minute window, as the three X-RateLimit-* headers show it. */
export interface RateState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
  exceeded: boolean;
}

/** The current one-minute window of the counter `name`, holding at most `limit`, kept `keepMs` past its end. */
function windowOf(deps: Pick<AppDeps, 'clock'>, name: string, limit: number, keepMs = WINDOW_MS) {
  const now = deps.clock.now().getTime();
  const start = now - (now % WINDOW_MS);
  return { limit, start, key: `${name}:${start}`, expiresAt: new Date(start + WINDOW_MS + keepMs), reset: Math.ceil((start + WINDOW_MS) / 1000) };
}

const HISTORY_KEEP_MS = HISTORY_MINUTES * WINDOW_MS;

/** An account's request counter (shared by all its keys) and its per-minute limit. */
const rateName = (account: Account): string => `rate:${account.id}`;
const rateLimitOf = (account: Account): number => account.requestsPerMinute ?? PLANS[account.plan].requestsPerMinute;

const stateOf = (w: ReturnType<typeof windowOf>, used: number): RateState => ({
  limit: w.limit,
  remaining: Math.max(0, w.limit - used),
  reset: w.reset,
  exceeded: used > w.limit,
});

/** Counts one request in the account's fixed one-minute window (shared by all its keys). */
export async function countRequest(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<RateState> {
  return countInWindow(deps, rateName(account), rateLimitOf(account), HISTORY_KEEP_MS);
}

/**
 * Counts `units` more requests in the account's window: a GraphQL operation
 * counts by its cost (an operation worth ten reads is ten requests), of which
 * its admission already counted one.
 */
export async function countRequestUnits(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account, units: number): Promise<RateState> {
  const w = windowOf(deps, rateName(account), rateLimitOf(account), HISTORY_KEEP_MS);
  return stateOf(w, await deps.store.usage.increment(w.key, units, w.expiresAt));
}

/** Counts one event in the fixed one-minute window of the counter `name` (a client address, a payer), against `limit`. */
export async function countInWindow(deps: Pick<AppDeps, 'store' | 'clock'>, name: string, limit: number, keepMs?: number): Promise<RateState> {
  const w = windowOf(deps, name, limit, keepMs);
  return stateOf(w, await deps.store.usage.increment(w.key, 1, w.expiresAt));
}

/**
 * Takes one slot of the counter `name`'s one-minute window when fewer than
 * `limit` are taken, in one atomic step (nothing counted when full, so
 * concurrent takers never pass `limit`); `giveBack` returns the slot.
 */
export async function takeInWindow(deps: Pick<AppDeps, 'store' | 'clock'>, name: string, limit: number): Promise<{ state: RateState; giveBack(): Promise<void> }> {
  const w = windowOf(deps, name, limit);
  const used = await deps.store.usage.incrementIfAtMost(w.key, 1, limit, w.expiresAt);
  return {
    state: stateOf(w, used ?? limit + 1),
    giveBack: async () => {
      if (used !== null) await deps.store.usage.increment(w.key, -1, w.expiresAt);
    },
  };
}

/** Requests an account made per minute over the last `minutes` (≤ a day), oldest first, the current minute last: one read of its rate counters. */
export async function requestHistory(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account, minutes: number): Promise<{ minute: Date; requests: number }[]> {
  const n = Math.min(Math.max(1, Math.floor(minutes)), HISTORY_MINUTES);
  const { start } = windowOf(deps, rateName(account), 0);
  const starts = Array.from({ length: n }, (_, i) => start - (n - 1 - i) * WINDOW_MS);
  const counts = await deps.store.usage.getMany(starts.map((s) => `${rateName(account)}:${s}`));
  return starts.map((s, i) => ({ minute: new Date(s), requests: counts[i] ?? 0 }));
}

/**
 * The window as it stands, without counting: for answers to a revoked key,
 * which must not spend the account's window (a leaked key could lock the account out).
 */
export async function peekRate(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<RateState> {
  const w = windowOf(deps, rateName(account), rateLimitOf(account));
  return stateOf(w, await deps.store.usage.get(w.key));
}

export function rateHeaders(s: RateState): Record<string, string> {
  return { 'X-RateLimit-Limit': String(s.limit), 'X-RateLimit-Remaining': String(s.remaining), 'X-RateLimit-Reset': String(s.reset) };
}

/** Seconds until the window resets (at least 1), for Retry-After. */
export function retryAfterSeconds(s: RateState, now: Date): number {
  return Math.max(1, s.reset - Math.floor(now.getTime() / 1000));
}
