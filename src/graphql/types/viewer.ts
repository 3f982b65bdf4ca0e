import { builder } from '../builder';
import { ChainEnum } from './enums';
import { IntentRef } from './intent';
import type { ChainName } from '../../domain/chains';
import type { Intent } from '../../domain/intent';
import type { Account } from '../../domain/types';
import type { Principal } from '../../app/accounts/principal';
import { unauthorized } from '../../domain/errors/auth';
import { parseInput } from '../../domain/schemas/parse';
import { dashboardKeySchema } from '../../domain/schemas/dashboard';
import {
  accountIntents,
  accountUsage,
  accountWallets,
  createAccountKey,
  listAccountKeys,
  revokeAccountKey,
  watchAccountIntents,
  type ApiKeyView,
  type WalletSummary,
} from '../../app/dashboard/accountViews';
import { withoutNulls } from '../resolverHelpers';

/**
 * The dashboard's fields: the signed-in person (`viewer`) and their account,
 * key creation and revocation, and their intents live. Only a session may
 * call them (operationCost.ts ROOT_FIELD_CALLERS decides, before any resolver
 * runs); this narrows the caller's type.
 */
function sessionOf(principal: Principal | null): Principal & { user: { id: string; email: string } } {
  if (!principal || principal.via !== 'session' || !principal.user) throw unauthorized('Sign in at /dashboard');
  return principal as Principal & { user: { id: string; email: string } };
}

const ScopeEnum = builder.enumType('Scope', { values: { READ: { value: 'read' as const }, WRITE: { value: 'write' as const } } });
const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', { values: { ACTIVE: { value: 'active' as const }, REVOKED: { value: 'revoked' as const } } });

const ApiKeyRef = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'An API key of the account as listed: its display prefix, never the key.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name', { nullable: true }),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key, to recognise it by.' }),
    scopes: t.field({ type: [ScopeEnum], resolve: (k) => k.scopes }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'When the key last admitted a request (recorded in batches: up to a few seconds behind).' }),
    status: t.field({ type: ApiKeyStatusEnum, resolve: (k) => k.status }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const CreatedApiKeyRef = builder.objectRef<{ key: string; apiKey: ApiKeyView }>('CreatedApiKey').implement({
  description: 'A new key: the only answer that ever holds the full key. Store it now; it cannot be shown again.',
  fields: (t) => ({
    key: t.exposeString('key'),
    apiKey: t.field({ type: ApiKeyRef, resolve: (c) => c.apiKey }),
  }),
});

type Usage = Awaited<ReturnType<typeof accountUsage>>;

const CreditUsageRef = builder.objectRef<Usage['credits']>('CreditUsage').implement({
  fields: (t) => ({
    used: t.exposeInt('used'),
    limit: t.exposeInt('limit', { nullable: true, description: 'Null: unlimited.' }),
    resetsAt: t.expose('resetsAt', { type: 'DateTime' }),
  }),
});

const WalletUsageRef = builder.objectRef<Usage['wallets']>('WalletUsage').implement({
  fields: (t) => ({
    count: t.exposeInt('count'),
    limit: t.exposeInt('limit', { nullable: true, description: 'Null: unlimited.' }),
  }),
});

const RateWindowRef = builder.objectRef<Usage['rateWindow']>('RateWindow').implement({
  description: "The account's current one-minute rate window (all its keys together).",
  fields: (t) => ({
    limit: t.exposeInt('limit'),
    used: t.exposeInt('used'),
    remaining: t.exposeInt('remaining'),
    resetsAt: t.expose('resetsAt', { type: 'DateTime' }),
  }),
});

const MinuteCountRef = builder.objectRef<{ minute: Date; requests: number }>('MinuteCount').implement({
  fields: (t) => ({
    minute: t.field({ type: 'DateTime', resolve: (m) => m.minute.toISOString() }),
    requests: t.exposeInt('requests'),
  }),
});

const AccountUsageRef = builder.objectRef<Usage>('AccountUsage').implement({
  fields: (t) => ({
    credits: t.field({ type: CreditUsageRef, resolve: (u) => u.credits }),
    wallets: t.field({ type: WalletUsageRef, resolve: (u) => u.wallets }),
    rateWindow: t.field({ type: RateWindowRef, resolve: (u) => u.rateWindow }),
    requestsPerMinute: t.exposeInt('requestsPerMinute'),
    history: t.field({
      type: [MinuteCountRef],
      description: 'Requests per minute with API keys, oldest first, one entry per minute (zeros included), the current minute last; at most 1440 (a day).',
      args: { minutes: t.arg.int({ defaultValue: 60 }) },
      resolve: (u, args) => u.history(args.minutes ?? 60),
    }),
  }),
});

const WalletSummaryRef = builder.objectRef<WalletSummary>('WalletSummary').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    userId: t.exposeString('userId'),
    address: t.exposeString('address'),
    chains: t.field({ type: [ChainEnum], resolve: (w) => w.chains as ChainName[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    totalValueUsd: t.exposeFloat('totalValueUsd', { nullable: true, description: 'Null when its chains could not be read just now.' }),
  }),
});

const ViewerAccountRef = builder.objectRef<{ principal: Principal; account: Account }>('ViewerAccount').implement({
  fields: (t) => ({
    id: t.field({ type: 'ID', resolve: (a) => a.account.id }),
    plan: t.string({ resolve: (a) => a.account.plan }),
    usage: t.field({ type: AccountUsageRef, resolve: (a, _args, ctx) => accountUsage(ctx.deps, a.account) }),
    keys: t.field({ type: [ApiKeyRef], resolve: (a, _args, ctx) => listAccountKeys(ctx.deps, a.account.id) }),
    wallets: t.field({ type: [WalletSummaryRef], description: 'The newest 100 wallets.', resolve: (a, _args, ctx) => accountWallets(ctx.deps, a.principal) }),
    intents: t.field({
      type: [IntentRef],
      description: "The account's newest intents across its wallets (first ≤ 100).",
      args: { first: t.arg.int({ defaultValue: 20 }) },
      resolve: (a, args, ctx) => accountIntents(ctx.deps, a.account.id, args.first ?? 20),
    }),
  }),
});

const ViewerRef = builder.objectRef<{ principal: Principal & { user: { email: string } }; environment: string }>('Viewer').implement({
  description: 'The person signed in to the dashboard.',
  fields: (t) => ({
    email: t.string({ resolve: (v) => v.principal.user.email }),
    environment: t.string({ description: 'development, staging or production.', resolve: (v) => v.environment }),
    account: t.field({ type: ViewerAccountRef, resolve: (v) => ({ principal: v.principal, account: v.principal.account }) }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: ViewerRef,
    description: 'The signed-in person and their account (dashboard session only).',
    resolve: (_root, _args, ctx) => ({ principal: sessionOf(ctx.principal), environment: ctx.deps.environment }),
  }),
);

builder.mutationField('createApiKey', (t) =>
  t.field({
    type: CreatedApiKeyRef,
    description: 'Creates an API key for the signed-in account (dashboard session only). The answer is the only time the key is shown.',
    args: { name: t.arg.string({ required: true }), scopes: t.arg({ type: [ScopeEnum] }) },
    resolve: (_root, args, ctx) => {
      const principal = sessionOf(ctx.principal);
      const input = parseInput(dashboardKeySchema, withoutNulls(args));
      return createAccountKey(ctx.deps, principal, input);
    },
  }),
);

builder.mutationField('revokeApiKey', (t) =>
  t.field({
    type: ApiKeyRef,
    description: "Revokes one of the signed-in account's keys, effective at once (dashboard session only).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revokeAccountKey(ctx.deps, sessionOf(ctx.principal), String(args.id)),
  }),
);

builder.subscriptionField('viewerIntentUpdated', (t) =>
  t.field({
    type: IntentRef,
    description: "Every change of any of the signed-in account's intents from now on, new ones included (dashboard session only).",
    subscribe: (_root, _args, ctx) => watchAccountIntents(ctx.deps, sessionOf(ctx.principal).account.id),
    resolve: (intent: Intent) => intent,
  }),
);
