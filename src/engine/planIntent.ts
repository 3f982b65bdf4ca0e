import { isServiceError, type ServiceError } from '../domain/errors/base';
import type { AccountModel, ChainName } from '../domain/chains';
import type { Intent, Step } from '../domain/intent';
import type { ChainPort } from '../ports/chain';
import { fromUnits } from '../domain/money';
import { withRetry } from './retry';
import { planOn, planningError, planningRequestOf, readPlanning, reportedApy, type PlanningEffects } from './planning';
import type { IntentEvent } from '../domain/intentStateMachine';
import type { UnitContext } from './unitContext';
import { withSupplyPermits } from './supplyPermits';

const fail = (error: ServiceError): IntentEvent => ({ type: 'fail', error: error.toJSON() });

/**
 * How each chain of the plan runs the wallet's calls, decided here once
 * (the deployment's per-chain account model) and kept on the intent:
 * execution, recovery and a restart follow it even if the deployment changes.
 */
function accountModelsOf(steps: readonly Step[], chains: Pick<ChainPort, 'accountModel'>): Partial<Record<ChainName, AccountModel>> | undefined {
  const models: Partial<Record<ChainName, AccountModel>> = {};
  for (const s of steps) for (const c of s.type === 'bridge' ? [s.from, s.to] : [s.chain]) models[c] = chains.accountModel?.(c) ?? 'plain';
  return Object.values(models).some((m) => m === '7702') ? models : undefined;
}

/** Planning's reads through the engine's effects, transient errors retried on its clock. */
const planningEffectsOf = (ctx: UnitContext, intent: Intent): PlanningEffects => ({
  chains: ctx.chains,
  wallets: ctx.wallets,
  intents: ctx.intents,
  retry: { policy: ctx.retry, clock: ctx.clock },
  signal: ctx.signal,
  ...(ctx.planningCache && { cache: { reads: ctx.planningCache, intentId: intent.id } }),
});

/**
 * The engine's planning step of a `planning` intent: reads the wallet's
 * holdings on its chains (the read caches' when nothing of the wallet changed
 * since they were read), the rates and route fees (transient errors
 * retried), then runs the pure planner on the intent's PlanningRequest
 * (src/engine/planning.ts, shared with the preview), then the policy's check
 * of the plan (its USD value where each step executes). Returns the `execute`
 * event, or `fail` (INSUFFICIENT_FUNDS with details, POLICY_VIOLATION, or why
 * the chains could not be read).
 */
export async function planIntent(intent: Intent, ctx: UnitContext): Promise<IntentEvent> {
  const request = planningRequestOf(intent);
  let fx = planningEffectsOf(ctx, intent);
  let read = await readPlanning(request, fx);
  if (!read.ok) return fail(read.error);
  let result = planOn(request, read.snapshot);
  if (!result.ok && read.snapshot.fromCache) {
    // Kept balances lag funds that arrived since: the chains have the last word before the intent fails.
    fx = { ...fx, cache: undefined };
    read = await readPlanning(request, fx);
    if (!read.ok) return fail(read.error);
    result = planOn(request, read.snapshot);
  }
  if (!result.ok) return fail(await planningError(request, fx, read.snapshot, result.error));
  const accountModels = accountModelsOf(result.plan.steps, ctx.chains);
  const execute: IntentEvent = {
    type: 'execute',
    plan: { ...result.plan, steps: withSupplyPermits(result.plan.steps, ctx.chains) },
    amount: fromUnits(result.amount, intent.asset),
    apy: reportedApy(result.apy),
    ...(accountModels && { accountModels }),
  };
  if (!ctx.checkPlan || !intent.policy) return execute;
  const checkPlan = ctx.checkPlan;
  let checked;
  try {
    checked = await withRetry(() => checkPlan(intent, result.plan.steps), { policy: ctx.retry, clock: ctx.clock, signal: ctx.signal });
  } catch (e) {
    // the prices could not be read beyond the retries: nothing is signed
    if (isServiceError(e) && e.code !== 'INTERNAL_ERROR') return fail(e);
    throw e;
  }
  if (!checked.ok) return fail(checked.error);
  return checked.policy ? { ...execute, policy: checked.policy } : execute;
}
