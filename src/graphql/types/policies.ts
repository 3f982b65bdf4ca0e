import { builder } from '../builder';
import { ChainEnum } from './enums';
import { PageInfoRef } from './intent';
import { WalletRef } from './wallet';
import { IntentRef } from './intent';
import type { ChainName } from '../../domain/chains';
import type { PolicyRules } from '../../domain/policy';
import { runOperation } from '../../app/accounts/admitRequest';
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from '../../app/policies/managePolicies';
import { effectivePolicy, removeWalletPolicy, setWalletPolicy } from '../../app/policies/walletPolicy';
import { toPolicyView, type PolicyView } from '../../app/policies/policyView';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';

const ActionEnum = builder.enumType('PolicyAction', {
  description: 'An intent action a policy may allow.',
  values: { LEND: { value: 'lend' as const }, WITHDRAW: { value: 'withdraw' as const }, BRIDGE: { value: 'bridge' as const } },
});
const ScopeEnum = builder.enumType('PolicyScope', {
  description: "Whom a policy governs: the wallets it is set on, or every wallet of the account without a policy of its own.",
  values: { WALLET: { value: 'wallet' as const }, ACCOUNT: { value: 'account' as const } },
});
const ProtocolEnum = builder.enumType('LendingProtocol', {
  description: 'A lending protocol (names as in the yields report).',
  values: { AAVE_V3: { value: 'aave-v3' as const }, COMPOUND_V3: { value: 'compound-v3' as const } },
});

const PolicyRulesRef = builder.objectRef<PolicyRules>('PolicyRules').implement({
  description: 'What a policy allows; an absent rule allows everything it would govern.',
  fields: (t) => ({
    actions: t.field({ type: [ActionEnum], nullable: true, description: 'Intent actions allowed.', resolve: (r) => r.actions ?? null }),
    chains: t.field({ type: [ChainEnum], nullable: true, description: 'Chains an intent may touch: where funds leave, pass and arrive.', resolve: (r) => (r.chains as ChainName[] | undefined) ?? null }),
    protocols: t.field({ type: [ProtocolEnum], nullable: true, description: 'Lending protocols an intent may use.', resolve: (r) => r.protocols ?? null }),
    maxUsdPerIntent: t.string({ nullable: true, description: 'Most one intent may move, in USD.', resolve: (r) => r.maxUsdPerIntent ?? null }),
    maxUsdPerDay: t.string({ nullable: true, description: 'Most one wallet may move in any rolling 24 h, in USD.', resolve: (r) => r.maxUsdPerDay ?? null }),
  }),
});

export const PolicyRef = builder.objectRef<PolicyView>('Policy').implement({
  description: 'A spending policy (svc_policy_…): limits the service enforces before anything is signed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    scope: t.field({ type: ScopeEnum, resolve: (p) => p.scope }),
    rules: t.field({ type: PolicyRulesRef, resolve: (p) => p.rules }),
    version: t.exposeInt('version', { description: '+1 on every update; intents record the version they were decided under.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const PolicyEdgeRef = builder.objectRef<{ cursor: string; node: PolicyView }>('PolicyEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: PolicyRef, resolve: (e) => e.node }) }),
});

const PolicyConnectionRef = builder.objectRef<Awaited<ReturnType<typeof listPolicies>>>('PolicyConnection').implement({
  fields: (t) => ({
    edges: t.field({ type: [PolicyEdgeRef], resolve: (c) => c.edges }),
    pageInfo: t.field({ type: PageInfoRef, resolve: (c) => c.pageInfo }),
  }),
});

const PolicyRulesInput = builder.inputType('PolicyRulesInput', {
  description: 'At least one rule. USD amounts as decimal strings with at most 2 decimals.',
  fields: (t) => ({
    actions: t.field({ type: [ActionEnum] }),
    chains: t.field({ type: [ChainEnum] }),
    protocols: t.field({ type: [ProtocolEnum] }),
    maxUsdPerIntent: t.string(),
    maxUsdPerDay: t.string(),
  }),
});

const rulesOf = (r: object) => withoutNulls(r);

builder.queryField('policies', (t) =>
  t.field({
    type: PolicyConnectionRef,
    description: "The account's spending policies, newest first (same as GET /v1/policies).",
    args: { first: t.arg.int(), after: t.arg.string() },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'listPolicies', () => listPolicies(ctx.deps, principal, withoutNulls(args)), ctx.charge);
    },
  }),
);

builder.queryField('policy', (t) =>
  t.field({
    type: PolicyRef,
    description: 'One of the account\'s policies (same as GET /v1/policies/:policyId).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'getPolicy', () => getPolicy(ctx.deps, principal, String(args.id)), ctx.charge);
    },
  }),
);

builder.mutationField('createPolicy', (t) =>
  t.field({
    type: PolicyRef,
    description: 'Creates a spending policy (same as POST /v1/policies).',
    args: { name: t.arg.string({ required: true }), scope: t.arg({ type: ScopeEnum }), rules: t.arg({ type: PolicyRulesInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls({ name: args.name, scope: args.scope, rules: rulesOf(args.rules) });
      return runOperation(ctx.deps, principal, 'createPolicy', () => createPolicy(ctx.deps, principal, body), ctx.charge);
    },
  }),
);

builder.mutationField('updatePolicy', (t) =>
  t.field({
    type: PolicyRef,
    description: 'Replaces a policy\'s name and rules; its version goes up by one and applies to intents accepted afterwards (same as PUT /v1/policies/:policyId).',
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }), rules: t.arg({ type: PolicyRulesInput, required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = { name: args.name, rules: rulesOf(args.rules) };
      return runOperation(ctx.deps, principal, 'updatePolicy', () => updatePolicy(ctx.deps, principal, String(args.id), body), ctx.charge);
    },
  }),
);

builder.mutationField('deletePolicy', (t) =>
  t.field({
    type: 'Boolean',
    description: 'Deletes a policy no wallet uses (same as DELETE /v1/policies/:policyId); POLICY_IN_USE otherwise.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'deletePolicy', async () => (await deletePolicy(ctx.deps, principal, String(args.id)), true), ctx.charge);
    },
  }),
);

builder.mutationField('setWalletPolicy', (t) =>
  t.field({
    type: WalletRef,
    description: "Sets a wallet's own spending policy (same as PUT /v1/wallets/:walletId/policy).",
    args: { walletId: t.arg.id({ required: true }), policyId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'setWalletPolicy', () => setWalletPolicy(ctx.deps, principal, String(args.walletId), { policyId: String(args.policyId) }), ctx.charge);
    },
  }),
);

builder.mutationField('removeWalletPolicy', (t) =>
  t.field({
    type: 'Boolean',
    description: "Removes a wallet's own policy; the account policy, if any, governs it again (same as DELETE /v1/wallets/:walletId/policy).",
    args: { walletId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return runOperation(ctx.deps, principal, 'removeWalletPolicy', async () => (await removeWalletPolicy(ctx.deps, principal, String(args.walletId)), true), ctx.charge);
    },
  }),
);

builder.objectField(WalletRef, 'policy', (t) =>
  t.field({
    type: PolicyRef,
    nullable: true,
    description: "The spending policy that governs the wallet: its own, else its account's account-scope policy; null when none.",
    resolve: async (w, _args, ctx) => {
      const principal = requirePrincipal(ctx);
      const wallet = await ctx.deps.store.wallets.getById(w.id);
      if (!wallet || wallet.accountId !== principal.account.id) return null;
      const policy = await effectivePolicy(ctx.deps, wallet).catch(() => null);
      return policy ? toPolicyView(policy) : null;
    },
  }),
);

const IntentPolicyRef = builder.objectRef<{ id: string; version: number }>('IntentPolicy').implement({
  description: 'The spending policy, and its version, an intent was decided under.',
  fields: (t) => ({ id: t.exposeID('id'), version: t.exposeInt('version') }),
});

builder.objectField(IntentRef, 'policy', (t) =>
  t.field({
    type: IntentPolicyRef,
    nullable: true,
    description: 'The spending policy (and version) the intent was decided under; null when none governed its wallet.',
    resolve: (i) => (i.policy ? { id: i.policy.id, version: i.policy.version } : null),
  }),
);
