import { builder } from '../builder';
import { requirePrincipal } from '../resolverHelpers';
import { getUsage, toUsageView, type UsageView } from '../../app/accounts/getUsage';
import { PLAN_NAMES, PLANS, type PlanName } from '../../domain/plans';

/**
 * Query.usage: the caller's account as its key holders see
 * it, the same use-case and numbers as GET /v1/usage. Free: it costs 0
 * credits (operationCost.ts prices it as getUsage), so it never spends what
 * it reports; it still counts in the rate window.
 *
 * `Plan` is defined here (the dashboard's ViewerAccount.plan uses it too).
 * The other parts are the types the dashboard's `viewer.account.usage`
 * already answers with (viewer.ts: CreditUsage, RateWindow, WalletUsage; the
 * same use-case behind both), bound here by name so the schema holds one type
 * per concept: the refs below name those types, they are not new ones.
 */

const unlimited = (n: number | null, unit: string) => (n === null ? `unlimited ${unit}` : `${n.toLocaleString('en-US')} ${unit}`);

const planDescription = (p: PlanName): string => {
  const plan = PLANS[p];
  const networks = plan.mainNetworks ? 'main and test networks' : 'test networks only';
  return `${plan.requestsPerMinute.toLocaleString('en-US')} requests per minute (unless the account has its own limit), ${unlimited(plan.creditsPerMonth, 'credits a month')}, ${unlimited(plan.wallets, 'wallets')}, ${networks}.`;
};

export const PlanEnum = builder.enumType('Plan', {
  description: 'An account\'s plan: its credits, rate limit, wallets and networks (REST spells it in lower case: FREE is "free").',
  values: Object.fromEntries(PLAN_NAMES.map((p) => [p.toUpperCase(), { value: p, description: planDescription(p) }])) as Record<
    Uppercase<PlanName>,
    { value: PlanName; description: string }
  >,
});

/** `ref`, bound to the type another file implements under `name` (Pothos resolves it when the schema is built). */
function byName<R extends Parameters<typeof builder.configStore.associateParamWithRef>[0]>(ref: R, name: string): R {
  builder.configStore.associateParamWithRef(ref, name);
  return ref;
}

const CreditUsageRef = byName(builder.objectRef<UsageView['credits']>('CreditUsage'), 'CreditUsage');
const RateWindowRef = byName(builder.objectRef<UsageView['rateWindow']>('RateWindow'), 'RateWindow');
const WalletUsageRef = byName(builder.objectRef<UsageView['wallets']>('WalletUsage'), 'WalletUsage');

export const UsageRef = builder.objectRef<UsageView>('Usage').implement({
  description: "The caller's account: its plan, credits this month, the current rate window and its wallets (same resource as GET /v1/usage).",
  fields: (t) => ({
    plan: t.field({ type: PlanEnum, description: "The account's plan.", resolve: (u) => u.plan }),
    credits: t.field({
      type: CreditUsageRef,
      description: 'Credits this month: `limit - used` is what the X-Credits-Remaining header of every REST answer says. This field costs none.',
      resolve: (u) => u.credits,
    }),
    rateWindow: t.field({
      type: RateWindowRef,
      description: "The current one-minute request window of all the account's keys (this operation counted).",
      resolve: (u) => u.rateWindow,
    }),
    wallets: t.field({ type: WalletUsageRef, description: 'Wallets against the plan limit.', resolve: (u) => u.wallets }),
  }),
});

builder.queryField('usage', (t) =>
  t.field({
    type: UsageRef,
    nullable: true,
    description:
      "The caller's account usage: plan, credits, rate window, wallets (same as GET /v1/usage). Costs 0 credits; API keys only. Null only with an error.",
    admission: 'getUsage',
    resolve: async (_root, _args, ctx) => toUsageView(await getUsage(ctx.deps, requirePrincipal(ctx).account)),
  }),
);
