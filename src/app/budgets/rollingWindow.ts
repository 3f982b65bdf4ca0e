import type { UsageRepo } from '../../ports/store';

/** A budget counted over a rolling window, in buckets of `bucketMs` (the window is a whole number of buckets). */
export interface RollingBudget {
  /** Counter name; one counter per bucket is kept under `${key}:${bucket}`. */
  key: string;
  limit: number;
  windowMs: number;
  bucketMs: number;
}

export type BudgetTake =
  | {
      ok: true;
      used: number;
      giveBack(): Promise<void>;
      /** Where the amount was counted, to give it back later (e.g. after a restart). */ bucket: { key: string; expiresAt: Date };
    }
  | { ok: false; used: number; retryAfterSeconds: number };

/**
 * Takes `amount` from a rolling-window budget, or refuses. The window counted
 * is the current bucket plus the `windowMs / bucketMs` before it, so it always
 * covers at least the last `windowMs`: never more than `limit` inside any true
 * window of that length (a refusal may come up to one bucket early). The
 * current bucket is incremented atomically, then checked and given back when
 * over; concurrent takers may both be refused near the limit, never both
 * admitted past it.
 */
export async function takeFromBudget(usage: UsageRepo, b: RollingBudget, amount: number, now: number): Promise<BudgetTake> {
  const current = Math.floor(now / b.bucketMs);
  const span = Math.ceil(b.windowMs / b.bucketMs);
  const bucketKey = (i: number) => `${b.key}:${i}`;
  // A bucket's counter outlives the window it can count in.
  const expiresAt = new Date((current + span + 2) * b.bucketMs);
  const earlier = Array.from({ length: span }, (_, i) => current - span + i);
  const counts = await Promise.all(earlier.map((i) => usage.get(bucketKey(i))));
  const before = counts.reduce((a, c) => a + c, 0);
  const mine = await usage.increment(bucketKey(current), amount, expiresAt);
  const used = before + mine;
  if (used > b.limit) {
    await usage.increment(bucketKey(current), -amount, expiresAt);
    // Room opens when the oldest counted bucket leaves the window.
    const oldest = earlier.find((_, i) => counts[i]! > 0) ?? current;
    const retryAfterSeconds = Math.max(1, Math.ceil(((oldest + span + 1) * b.bucketMs - now) / 1000));
    return { ok: false, used: used - amount, retryAfterSeconds };
  }
  return {
    ok: true,
    used,
    bucket: { key: bucketKey(current), expiresAt },
    giveBack: async () => void (await usage.increment(bucketKey(current), -amount, expiresAt)),
  };
}

/** What was taken over the window so far (the same buckets takeFromBudget counts), and when the oldest of it leaves the window. */
export async function budgetUsed(usage: UsageRepo, b: RollingBudget, now: number): Promise<{ used: number; retryAfterSeconds: number }> {
  const current = Math.floor(now / b.bucketMs);
  const span = Math.ceil(b.windowMs / b.bucketMs);
  const buckets = Array.from({ length: span + 1 }, (_, i) => current - span + i);
  const counts = await Promise.all(buckets.map((i) => usage.get(`${b.key}:${i}`)));
  const oldest = buckets.find((_, i) => counts[i]! > 0) ?? current;
  return { used: counts.reduce((a, c) => a + c, 0), retryAfterSeconds: Math.max(1, Math.ceil(((oldest + span + 1) * b.bucketMs - now) / 1000)) };
}

/** Adds `amount` to the current bucket without a limit (spending that already happened). */
export async function recordInBudget(usage: UsageRepo, b: RollingBudget, amount: number, now: number): Promise<void> {
  const current = Math.floor(now / b.bucketMs);
  const span = Math.ceil(b.windowMs / b.bucketMs);
  await usage.increment(`${b.key}:${current}`, amount, new Date((current + span + 2) * b.bucketMs));
}
