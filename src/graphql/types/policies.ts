import { builder } from '../builder';
import { ChainEnum, LendingProtocolEnum, describedValues } from './enums';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from './connection';
import { NodeRef } from './node';
import { WalletRef } from './wallet';
import { IntentRef } from './intent/type';
import type { ChainName } from '../../domain/chains';
import type { IntentAction } from '../../domain/intent';
import type { PolicyRules, PolicyScope } from '../../domain/policy';
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from '../../app/policies/managePolicies';
import { effectivePolicy, removeWalletPolicy, setWalletPolicy } from '../../app/policies/walletPolicy';
import { toPolicyView, type PolicyView } from '../../app/policies/policyView';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';

const ActionEnum = builder.enumType('PolicyAction', {
  description: 'An intent action a policy may allow.',
  values: describedValues<IntentAction>({
    lend: 'Lend intents.',
    withdraw: 'Withdraw intents.',
    bridge: 'Bridge intents.',
    rebalance: 'Rebalance intents (a standing intent moves funds with them).',
  }),
});
const ScopeEnum = builder.enumType('PolicyScope', {
  description: 'Whom a policy governs: the wallets it is set on, or every wallet of the account without a policy of its own.',
  values: describedValues<PolicyScope>({
    wallet: 'Governs the wallets it is set on (setWalletPolicy, or policyId at creation).',
    account: 'Governs every wallet of the account without a policy of its own (one per account).',
  }),
});

const PolicyRulesRef = builder.objectRef<PolicyRules>('PolicyRules').implement({
  description: 'What a policy allows; an absent rule allows everything it would govern.',
  fields: (t) => ({
    actions: t.field({ type: [ActionEnum], nullable: true, description: 'Intent actions allowed; null: all.', resolve: (r) => r.actions ?? null }),
    chains: t.field({
      type: [ChainEnum],
      nullable: true,
      description: 'Chains an intent may touch: where funds leave, pass and arrive; null: all.',
      resolve: (r) => (r.chains as ChainName[] | undefined) ?? null,
    }),
    protocols: t.field({
      type: [LendingProtocolEnum],
      nullable: true,
      description: 'Lending protocols an intent may use; null: all.',
      resolve: (r) => r.protocols ?? null,
    }),
    maxUsdPerIntent: t.string({
      nullable: true,
      description: 'Most one intent may move, in USD (decimal string); null: no limit.',
      resolve: (r) => r.maxUsdPerIntent ?? null,
    }),
    maxUsdPerDay: t.string({
      nullable: true,
      description: 'Most one wallet may move in any rolling 24 h, in USD (decimal string); null: no limit.',
      resolve: (r) => r.maxUsdPerDay ?? null,
    }),
  }),
});

export const PolicyRef = builder.objectRef<PolicyView>('Policy').implement({
  description: 'A spending policy (svc_policy_…): limits the service enforces before anything is signed (same resource as /v1/policies).',
  interfaces: [NodeRef],
  fields: (t) => ({
    name: t.exposeString('name', { description: 'For people: 1-64 characters.' }),
    scope: t.field({ type: ScopeEnum, description: 'Whom the policy governs.', resolve: (p) => p.scope }),
    rules: t.field({ type: PolicyRulesRef, description: 'What the policy allows.', resolve: (p) => p.rules }),
    version: t.exposeInt('version', { description: '+1 on every update; intents record the version they were decided under.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the policy was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was last replaced.' }),
  }),
});

const PolicyConnectionRef = connectionTypes<PolicyView, PolicyView>(
  'Policy',
  PolicyRef,
  { edge: 'A policy', one: 'policy', many: 'policies', within: 'list', connection: "A page of the account's spending policies, newest first." },
  (p) => p,
);

const PolicyRulesInput = builder.inputType('PolicyRulesInput', {
  description: 'At least one rule. USD amounts as decimal strings with at most 2 decimals.',
  fields: (t) => ({
    actions: t.field({ type: [ActionEnum], description: 'The intent actions allowed, without repeats (absent: all of them).' }),
    chains: t.field({ type: [ChainEnum], description: 'The chains an intent may touch, without repeats (absent: all of them). The planner uses no other.' }),
    protocols: t.field({
      type: [LendingProtocolEnum],
      description: 'The lending protocols an intent may supply to or withdraw from, without repeats (absent: all of them).',
    }),
    maxUsdPerIntent: t.string({
      description: 'The most one intent may move, in USD at the asset\'s price when it is accepted (exactly the limit is allowed), e.g. "100".',
    }),
    maxUsdPerDay: t.string({ description: 'The most one wallet may move in any rolling 24 h, in USD, e.g. "500.50".' }),
  }),
});

const rulesOf = (r: object) => withoutNulls(r);

builder.queryField('policies', (t) =>
  t.field({
    type: PolicyConnectionRef,
    nullable: true,
    description: "The account's spending policies, newest first (same as GET /v1/policies), by Relay cursors both ways; null with its error when refused.",
    args: {
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
    },
    admission: 'listPolicies',
    resolve: (_root, args, ctx) => paginate(args, (page) => listPolicies(ctx.deps, requirePrincipal(ctx), page), ctx),
  }),
);

builder.queryField('policy', (t) =>
  t.field({
    type: PolicyRef,
    nullable: true,
    description:
      "One of the account's policies (same as GET /v1/policies/:policyId); null with a POLICY_NOT_FOUND error when there is none (another account's answers the same).",
    args: { id: t.arg.id({ required: true, description: 'The policy id (svc_policy_…).' }) },
    admission: 'getPolicy',
    resolve: (_root, args, ctx) => getPolicy(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.mutationField('createPolicy', (t) =>
  t.field({
    type: PolicyRef,
    nullable: true,
    description:
      'Creates a spending policy (same as POST /v1/policies). Null with its error when refused (e.g. POLICY_CONFLICT: a second account-scope policy).',
    args: {
      name: t.arg.string({ required: true, description: 'For people: 1-64 characters once surrounding whitespace is trimmed.' }),
      scope: t.arg({ type: ScopeEnum, description: 'WALLET (default) or ACCOUNT.' }),
      rules: t.arg({ type: PolicyRulesInput, required: true, description: 'What the policy allows.' }),
    },
    admission: 'createPolicy',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls({ name: args.name, scope: args.scope, rules: rulesOf(args.rules) });
      return createPolicy(ctx.deps, principal, body);
    },
  }),
);

builder.mutationField('updatePolicy', (t) =>
  t.field({
    type: PolicyRef,
    nullable: true,
    description:
      "Replaces a policy's name and rules; its version goes up by one and applies to intents accepted afterwards (same as PUT /v1/policies/:policyId). Null with its error when refused.",
    args: {
      id: t.arg.id({ required: true, description: 'The policy to replace (svc_policy_…).' }),
      name: t.arg.string({ required: true, description: 'The new name: 1-64 characters once trimmed.' }),
      rules: t.arg({ type: PolicyRulesInput, required: true, description: 'The new rules (they replace the old ones whole).' }),
    },
    admission: 'updatePolicy',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = { name: args.name, rules: rulesOf(args.rules) };
      return updatePolicy(ctx.deps, principal, String(args.id), body);
    },
  }),
);

builder.mutationField('deletePolicy', (t) =>
  t.field({
    type: 'Boolean',
    nullable: true,
    description:
      'Deletes a policy no wallet uses (same as DELETE /v1/policies/:policyId): true when deleted; null with its error when refused (POLICY_IN_USE, POLICY_NOT_FOUND).',
    args: { id: t.arg.id({ required: true, description: 'The policy to delete (svc_policy_…).' }) },
    admission: 'deletePolicy',
    resolve: async (_root, args, ctx) => (await deletePolicy(ctx.deps, requirePrincipal(ctx), String(args.id)), true),
  }),
);

builder.mutationField('setWalletPolicy', (t) =>
  t.field({
    type: WalletRef,
    nullable: true,
    description: "Sets a wallet's own spending policy (same as PUT /v1/wallets/:walletId/policy); answers the wallet. Null with its error when refused.",
    args: {
      walletId: t.arg.id({ required: true, description: 'The wallet (svc_wallet_…).' }),
      policyId: t.arg.id({ required: true, description: 'A wallet-scope policy of your account (svc_policy_…).' }),
    },
    admission: 'setWalletPolicy',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return setWalletPolicy(ctx.deps, principal, String(args.walletId), { policyId: String(args.policyId) });
    },
  }),
);

builder.mutationField('removeWalletPolicy', (t) =>
  t.field({
    type: 'Boolean',
    nullable: true,
    description:
      "Removes a wallet's own policy; the account policy, if any, governs it again (same as DELETE /v1/wallets/:walletId/policy): true when done; null with its error when refused.",
    args: { walletId: t.arg.id({ required: true, description: 'The wallet (svc_wallet_…).' }) },
    admission: 'removeWalletPolicy',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return (await removeWalletPolicy(ctx.deps, principal, String(args.walletId)), true);
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
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The policy id (svc_policy_…): `node(id:)` or `policy(id:)` reads its current version, if it still exists.' }),
    version: t.exposeInt('version', { description: 'The version the intent was decided under.' }),
  }),
});

builder.objectField(IntentRef, 'policy', (t) =>
  t.field({
    type: IntentPolicyRef,
    nullable: true,
    description: 'The spending policy (and version) the intent was decided under; null when none governed its wallet.',
    resolve: (i) => (i.policy ? { id: i.policy.id, version: i.policy.version } : null),
  }),
);
