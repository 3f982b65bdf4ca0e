import type { AppDeps } from '../deps';
import type { ChainName } from '../../domain/chains';
import type { IntentPolicy } from '../../domain/intent';
import type { Wallet } from '../../domain/types';
import { centsToUsd, refuseRequest, usdCents, type PolicyRefusal, type PolicyRules } from '../../domain/policy';
import { policyViolation } from '../../domain/errors/policy';
import type { ServiceError } from '../../domain/errors/base';
import type { CreateIntentParams } from '../../domain/schemas/intent';
import { takeFromBudget } from '../budgets/rollingWindow';
import { effectivePolicy } from './walletPolicy';
import { requestFloorCents, sourceChains, type PricedRequest } from './pricing';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** The rolling 24 h window of one wallet's spending under its policy, in cents (hour buckets). */
export const dailyWindow = (walletId: string, limitCents: bigint) => ({
  key: `policyday:${walletId}`,
  limit: Number(limitCents),
  windowMs: DAY_MS,
  bucketMs: HOUR_MS,
});

/** The chains an intent request names (a rebalance's sources' too). */
export const requestChains = (p: CreateIntentParams): ChainName[] =>
  [p.chain, p.fromChain, p.toChain, ...(p.sources ?? []).map((s) => s.chain)].filter((c): c is ChainName => c !== undefined);

/** The lending protocols an intent request names: a rebalance's target market and the positions it withdraws from. */
export const requestProtocols = (p: CreateIntentParams): string[] =>
  [p.toProtocol, ...(p.sources ?? []).map((s) => s.protocol)].filter((x): x is NonNullable<typeof x> => x !== undefined && x !== null);

/** The chains the request's plan could draw from (the wallet's served chains as a last resort, so a price is always read). */
export function requestSourceChains(deps: Pick<AppDeps, 'chains'>, wallet: Wallet, params: CreateIntentParams, rules: PolicyRules | undefined): ChainName[] {
  const served = wallet.chains.filter((c) => deps.chains.chains.includes(c));
  const chains = sourceChains(params as PricedRequest, served, rules);
  return chains.length > 0 ? chains : served.length > 0 ? served : wallet.chains.slice(0, 1);
}

/** What the decision hands back: the record to keep on the intent, and how to undo its reservation if the intent is not stored. */
export interface IntentDecision {
  policy: IntentPolicy;
  release(): Promise<void>;
}

/**
 * Decides what the request alone decides, before anything is stored or
 * charged (issue "spending policies" item 2): the action, the chains it
 * names, the per-intent cap, and the wallet's rolling daily cap, reserved
 * atomically in the store (exactly at the limit is allowed). The USD value is
 * the request's floor (pricing.ts): the amount at the cheapest price among the
 * chains its plan could draw from; planning settles it to the plan's value. A refusal throws POLICY_VIOLATION
 * (reported to `onDenied` first). Null: no policy governs the wallet.
 */
export async function decideIntent(
  deps: Pick<AppDeps, 'store' | 'clock' | 'chains'>,
  wallet: Wallet,
  params: CreateIntentParams,
  onDenied?: (error: ServiceError, refusal: PolicyRefusal) => Promise<void> | void,
): Promise<IntentDecision | null> {
  const policy = await effectivePolicy(deps, wallet);
  if (!policy) return null;
  const ref = { id: policy.id, version: policy.version };
  const deny = async (refusal: PolicyRefusal): Promise<never> => {
    const error = policyViolation(ref, refusal);
    await onDenied?.(error, refusal);
    throw error;
  };
  const { rules } = policy;
  const needsValue = rules.maxUsdPerIntent !== undefined || rules.maxUsdPerDay !== undefined;
  // The request's floor: a cap exceeded even at the cheapest chain the plan could draw from is refused now; planning prices the plan itself.
  const cents = needsValue ? await requestFloorCents(deps.chains, params as PricedRequest, requestSourceChains(deps, wallet, params, rules)) : 0n;
  const refusal = refuseRequest(rules, { action: params.action, chains: requestChains(params), protocols: requestProtocols(params), usdCents: cents });
  if (refusal) return deny(refusal);
  const record: IntentPolicy = { id: policy.id, version: policy.version, rules };
  if (rules.maxUsdPerDay === undefined) return { policy: record, release: async () => undefined };
  const limit = usdCents(rules.maxUsdPerDay);
  const take = await takeFromBudget(deps.store.usage, dailyWindow(wallet.id, limit), Number(cents), deps.clock.now().getTime());
  if (!take.ok) return deny({ rule: 'maxUsdPerDay', limit: rules.maxUsdPerDay, requested: centsToUsd(BigInt(take.used) + cents) });
  record.reservation = { key: take.bucket.key, cents: Number(cents), expiresAt: take.bucket.expiresAt.toISOString() };
  return { policy: record, release: take.giveBack };
}

/** Gives back what a failed intent reserved of its wallet's daily cap, when it failed before signing anything. */
export async function releaseReservation(deps: Pick<AppDeps, 'store'>, policy: IntentPolicy | undefined): Promise<void> {
  for (const r of [policy?.reservation, policy?.planned]) {
    if (!r || r.cents <= 0) continue;
    await deps.store.usage.increment(r.key, -r.cents, new Date(r.expiresAt));
  }
}
