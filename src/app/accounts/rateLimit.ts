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

/** An account's request counter (shared by all its keys) and its per-minute limit. */
const rateName = (account: Account): string => `rate:${account.id}`;
const rateLimitOf = (account: Account): number => account.requestsPerMinute ?? PLANS[account.plan].requestsPerMinute;

/** The current window of an account's request counter (kept `keepMs` past its end). */
const accountWindow = (deps: Pick<AppDeps, 'clock'>, account: Account, keepMs?: number) => windowOf(deps, account, rateLimitOf(account), keepMs);

/**
 * One minute's windows: every counter's window starts at the same instant,
 * so what a window needs is made once per minute and shared (read it, never
 * change it). Only accounts' keys are kept (one per account that made a
 * request this minute, each with a valid key); other counters (client
 * addresses, payers) make theirs per call, so a flood of new addresses
 * cannot grow this.
 */
interface Minute {
  start: number;
  reset: number;
  /** Each account's request counter key this minute (`rate:<id>:<start>`), by account id. */
  accountKeys: Map<string, string>;
  /** When a window kept `keepMs` past its end expires, by keepMs. */
  expires: Map<number, Date>;
}
let minute: Minute = { start: -1, reset: 0, accountKeys: new Map(), expires: new Map() };

/**
 * The current one-minute window of the counter `counter` (a name, or an
 * account: its request counter), holding at most `limit`, kept `keepMs`
 * past its end. An account's request allocates no string and no Date for it,
 * and the store's map hashes the same key string each time.
 */
function windowOf(deps: Pick<AppDeps, 'clock'>, counter: string | Account, limit: number, keepMs = WINDOW_MS) {
  const now = deps.clock.now().getTime();
  const start = now - (now % WINDOW_MS);
  // (a clock that moves back a minute only makes that minute's again)
  if (start !== minute.start) minute = { start, reset: Math.ceil((start + WINDOW_MS) / 1000), accountKeys: new Map(), expires: new Map() };
  const m = minute;
  let key: string | undefined;
  if (typeof counter === 'string') key = `${counter}:${start}`;
  else if ((key = m.accountKeys.get(counter.id)) === undefined) m.accountKeys.set(counter.id, (key = `${rateName(counter)}:${start}`));
  let expiresAt = m.expires.get(keepMs);
  if (expiresAt === undefined) m.expires.set(keepMs, (expiresAt = new Date(start + WINDOW_MS + keepMs)));
  return { limit, start, key, expiresAt, reset: m.reset };
}

const HISTORY_KEEP_MS = HISTORY_MINUTES * WINDOW_MS;

const stateOf = (w: ReturnType<typeof windowOf>, used: number): RateState => ({
  limit: w.limit,
  remaining: Math.max(0, w.limit - used),
  reset: w.reset,
  exceeded: used > w.limit,
});

/** Counts one request in the account's fixed one-minute window (shared by all its keys): one store update, awaited once by the caller. */
export function countRequest(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<RateState> {
  const w = accountWindow(deps, account, HISTORY_KEEP_MS);
  return deps.store.usage.increment(w.key, 1, w.expiresAt).then((used) => stateOf(w, used));
}

/**
 * Counts `units` more requests in the account's window: a GraphQL operation
 * counts by its cost (an operation worth ten reads is ten requests), of which
 * its admission already counted one.
 */
export async function countRequestUnits(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account, units: number): Promise<RateState> {
  const w = accountWindow(deps, account, HISTORY_KEEP_MS);
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
export async function takeInWindow(
  deps: Pick<AppDeps, 'store' | 'clock'>,
  name: string,
  limit: number,
): Promise<{ state: RateState; giveBack(): Promise<void> }> {
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
  const { start } = accountWindow(deps, account);
  const starts = Array.from({ length: n }, (_, i) => start - (n - 1 - i) * WINDOW_MS);
  const counts = await deps.store.usage.getMany(starts.map((s) => `${rateName(account)}:${s}`));
  return starts.map((s, i) => ({ minute: new Date(s), requests: counts[i] ?? 0 }));
}

/**
 * The window as it stands, without counting: for answers to a revoked key,
 * which must not spend the account's window (a leaked key could lock the account out).
 */
export async function peekRate(deps: Pick<AppDeps, 'store' | 'clock'>, account: Account): Promise<RateState> {
  const w = accountWindow(deps, account);
  return stateOf(w, await deps.store.usage.get(w.key));
}

export function rateHeaders(s: RateState): Record<string, string> {
  return { 'X-RateLimit-Limit': String(s.limit), 'X-RateLimit-Remaining': String(s.remaining), 'X-RateLimit-Reset': String(s.reset) };
}

/** Seconds until the window resets (at least 1), for Retry-After. */
export function retryAfterSeconds(s: RateState, now: Date): number {
  return Math.max(1, s.reset - Math.floor(now.getTime() / 1000));
}
