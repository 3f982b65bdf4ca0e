import type { AppDeps } from '../deps';
import type { TokenAsset } from '../../domain/chains';
import type { Intent, IntentPolicy, Step } from '../../domain/intent';
import type { ServiceError } from '../../domain/errors/base';
import { policyViolation } from '../../domain/errors/policy';
import { centsToUsd, usdCents, type PolicyRefusal, type PolicyRules } from '../../domain/policy';
import { takeFromBudget } from '../budgets/rollingWindow';
import { dailyWindow } from './decideIntent';
import { planCents } from './pricing';

/** The refusal of the per-intent cap for a plan worth `cents` (exactly at the limit is allowed), or null. */
export function refusePlanValue(rules: PolicyRules, cents: bigint): PolicyRefusal | null {
  if (rules.maxUsdPerIntent === undefined || cents <= usdCents(rules.maxUsdPerIntent)) return null;
  return { rule: 'maxUsdPerIntent', limit: rules.maxUsdPerIntent, requested: centsToUsd(cents) };
}

/** What the planning-time check answers: the policy record to keep (its reservation settled), or the refusal that fails the intent. */
export type PlanCheck = { ok: true; policy?: IntentPolicy } | { ok: false; error: ServiceError };

/**
 * The planning-time check of the USD caps, before the plan's first signature:
 * the plan priced where each step executes (pricing.ts). Over the per-intent
 * cap, or over the daily cap once what submit reserved is settled to that
 * value, it refuses (the intent fails with POLICY_VIOLATION; the engine's
 * final hook gives back what was reserved). Otherwise the reservation is
 * settled to the plan's value: the difference is taken from (or given back
 * to) the wallet's rolling window, and the record says where, so that a
 * later failure before signing gives all of it back.
 */
export async function checkPlanPolicy(deps: Pick<AppDeps, 'store' | 'chains' | 'clock'>, intent: Intent, steps: readonly Step[]): Promise<PlanCheck> {
  const policy = intent.policy;
  if (!policy || (policy.rules.maxUsdPerIntent === undefined && policy.rules.maxUsdPerDay === undefined)) return { ok: true };
  const cents = await planCents(deps.chains, steps, intent.asset as TokenAsset);
  const refused = refusePlanValue(policy.rules, cents);
  if (refused) return { ok: false, error: policyViolation(policy, refused) };
  if (policy.rules.maxUsdPerDay === undefined) return { ok: true };
  const held = policy.reservation;
  const heldCents = BigInt(held?.cents ?? 0) + BigInt(policy.planned?.cents ?? 0);
  const extra = cents - heldCents;
  if (extra === 0n) return { ok: true };
  if (extra < 0n) {
    // cheaper than reserved: the difference goes back to the window (the floor priced at submit is never above the plan, but a plan may move less)
    if (!held) return { ok: true };
    const back = extra < -BigInt(held.cents) ? -BigInt(held.cents) : extra;
    await deps.store.usage.increment(held.key, Number(back), new Date(held.expiresAt));
    return { ok: true, policy: { ...policy, reservation: { ...held, cents: held.cents + Number(back) } } };
  }
  const limit = usdCents(policy.rules.maxUsdPerDay);
  const take = await takeFromBudget(deps.store.usage, dailyWindow(intent.walletId, limit), Number(extra), deps.clock.now().getTime());
  if (!take.ok)
    return {
      ok: false,
      error: policyViolation(policy, { rule: 'maxUsdPerDay', limit: policy.rules.maxUsdPerDay, requested: centsToUsd(BigInt(take.used) + extra) }),
    };
  const planned = { key: take.bucket.key, cents: (policy.planned?.cents ?? 0) + Number(extra), expiresAt: take.bucket.expiresAt.toISOString() };
  if (policy.planned && policy.planned.key !== planned.key) {
    // a second settlement in another bucket (planning ran again): keep one record by moving the first one's cents here
    await deps.store.usage.increment(policy.planned.key, -policy.planned.cents, new Date(policy.planned.expiresAt));
    await deps.store.usage.increment(planned.key, policy.planned.cents, take.bucket.expiresAt);
  }
  return { ok: true, policy: { ...policy, planned } };
}
