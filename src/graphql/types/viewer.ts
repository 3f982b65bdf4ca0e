import { builder } from '../builder';
import { ChainEnum, describedValues } from './enums';
import { PlanEnum } from './usage';
import type { ServiceEnvironment } from '../../domain/environment';
import type { Scope } from '../../domain/types';
import { IntentRef } from './intent/type';
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

const ScopeEnum = builder.enumType('Scope', {
  description: 'What an API key may do.',
  values: describedValues<Scope>({
    read: 'Read wallets, balances, yields, intents, policies and the audit log.',
    write: 'Create wallets and intents, fund demo wallets, manage policies.',
  }),
});
const ApiKeyStatusEnum = builder.enumType('ApiKeyStatus', {
  description: 'Whether an API key still admits requests.',
  values: describedValues<ApiKeyView['status']>({
    active: 'Admits requests.',
    revoked: 'Refused from the moment it was revoked.',
  }),
});
const EnvironmentEnum = builder.enumType('Environment', {
  description: 'The deployment the dashboard is connected to.',
  values: describedValues<ServiceEnvironment>({
    development: 'A developer deployment.',
    staging: 'Staging: test networks only, on every plan.',
    production: 'Production.',
  }),
});

const ApiKeyRef = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'An API key of the account as listed: its display prefix, never the key.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The key id (key_…), not the key.' }),
    name: t.exposeString('name', { nullable: true, description: 'The name given at creation; null when none.' }),
    prefix: t.exposeString('prefix', { description: 'The first characters of the key, to recognise it by.' }),
    scopes: t.field({ type: [ScopeEnum], description: 'What the key may do.', resolve: (k) => k.scopes }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the key was created.' }),
    lastUsedAt: t.expose('lastUsedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the key last admitted a request (recorded in batches: up to a few seconds behind).',
    }),
    status: t.field({ type: ApiKeyStatusEnum, description: 'Whether the key still admits requests.', resolve: (k) => k.status }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true, description: 'When the key was revoked; null while active.' }),
  }),
});

const CreatedApiKeyRef = builder.objectRef<{ key: string; apiKey: ApiKeyView }>('CreatedApiKey').implement({
  description: 'A new key: the only answer that ever holds the full key. Store it now; it cannot be shown again.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The full key (svc_sk_…), shown this once.' }),
    apiKey: t.field({ type: ApiKeyRef, description: 'The key as it will be listed.', resolve: (c) => c.apiKey }),
  }),
});

type Usage = Awaited<ReturnType<typeof accountUsage>>;

const CreditUsageRef = builder.objectRef<Usage['credits']>('CreditUsage').implement({
  description: "The account's credits this month (UTC).",
  fields: (t) => ({
    used: t.exposeInt('used', { description: 'Credits spent this month.' }),
    limit: t.exposeInt('limit', { nullable: true, description: 'Credits the plan allows a month; null: unlimited.' }),
    resetsAt: t.expose('resetsAt', { type: 'DateTime', description: 'When the month ends and `used` goes back to 0.' }),
  }),
});

const WalletUsageRef = builder.objectRef<Usage['wallets']>('WalletUsage').implement({
  description: "The account's wallets against its plan.",
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'Wallets the account has.' }),
    limit: t.exposeInt('limit', { nullable: true, description: 'Wallets the plan allows; null: unlimited.' }),
  }),
});

const RateWindowRef = builder.objectRef<Usage['rateWindow']>('RateWindow').implement({
  description: "The account's current one-minute rate window (all its keys together).",
  fields: (t) => ({
    limit: t.exposeInt('limit', { description: 'Requests allowed in the window.' }),
    used: t.exposeInt('used', { description: 'Requests counted in the window so far.' }),
    remaining: t.exposeInt('remaining', { description: 'Requests left in the window.' }),
    resetsAt: t.expose('resetsAt', { type: 'DateTime', description: 'When the window ends.' }),
  }),
});

const MinuteCountRef = builder.objectRef<{ minute: Date; requests: number }>('MinuteCount').implement({
  description: 'Requests with API keys in one minute.',
  fields: (t) => ({
    minute: t.field({ type: 'DateTime', description: 'The start of the minute.', resolve: (m) => m.minute.toISOString() }),
    requests: t.exposeInt('requests', { description: 'Requests counted in that minute.' }),
  }),
});

const AccountUsageRef = builder.objectRef<Usage>('AccountUsage').implement({
  description: "The account's usage as it stands (the same numbers as GET /admin/accounts/:id/usage).",
  fields: (t) => ({
    credits: t.field({ type: CreditUsageRef, description: 'Credits this month.', resolve: (u) => u.credits }),
    wallets: t.field({ type: WalletUsageRef, description: 'Wallets against the plan.', resolve: (u) => u.wallets }),
    rateWindow: t.field({ type: RateWindowRef, description: 'The current one-minute rate window.', resolve: (u) => u.rateWindow }),
    requestsPerMinute: t.exposeInt('requestsPerMinute', { description: "The account's rate limit, requests per minute." }),
    history: t.field({
      type: [MinuteCountRef],
      description: 'Requests per minute with API keys, oldest first, one entry per minute (zeros included), the current minute last; at most 1440 (a day).',
      args: { minutes: t.arg.int({ defaultValue: 60, description: 'How many minutes back, 1-1440 (default 60; out of range values are clamped).' }) },
      resolve: (u, args) => u.history(args.minutes ?? 60),
    }),
  }),
});

const WalletSummaryRef = builder.objectRef<WalletSummary>('WalletSummary').implement({
  description: 'A wallet as the dashboard lists it, with its total value (the full wallet is `node(id:)` or `walletById` with an API key).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The wallet id (svc_wallet_…).' }),
    userId: t.exposeString('userId', { description: "Your application's id for the user." }),
    address: t.exposeString('address', { description: 'The public address.' }),
    chains: t.field({ type: [ChainEnum], description: 'The chains the wallet acts on.', resolve: (w) => w.chains as ChainName[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the wallet was created.' }),
    totalValueUsd: t.exposeFloat('totalValueUsd', {
      nullable: true,
      description: 'Tokens plus positions in USD; null when its chains could not be read just now.',
    }),
  }),
});

const ViewerAccountRef = builder.objectRef<{ principal: Principal; account: Account }>('ViewerAccount').implement({
  description: 'The account of the signed-in person.',
  fields: (t) => ({
    id: t.field({ type: 'ID', description: 'The account id (acct_…).', resolve: (a) => a.account.id }),
    plan: t.field({ type: PlanEnum, description: "The account's plan.", resolve: (a) => a.account.plan }),
    usage: t.field({
      type: AccountUsageRef,
      description: 'Credits, wallets and rate window as they stand.',
      resolve: (a, _args, ctx) => accountUsage(ctx.deps, a.account),
    }),
    keys: t.field({
      type: [ApiKeyRef],
      description: "The account's API keys, revoked ones included.",
      resolve: (a, _args, ctx) => listAccountKeys(ctx.deps, a.account.id),
    }),
    wallets: t.field({ type: [WalletSummaryRef], description: 'The newest 100 wallets.', resolve: (a, _args, ctx) => accountWallets(ctx.deps, a.principal) }),
    intents: t.field({
      type: [IntentRef],
      description: "The account's newest intents across its wallets (first ≤ 100).",
      args: { first: t.arg.int({ defaultValue: 20, description: 'How many, 1-100 (default 20; out of range values are clamped).' }) },
      resolve: (a, args, ctx) => accountIntents(ctx.deps, a.account.id, args.first ?? 20),
    }),
  }),
});

const ViewerRef = builder.objectRef<{ principal: Principal & { user: { email: string } }; environment: ServiceEnvironment }>('Viewer').implement({
  description: 'The person signed in to the dashboard.',
  fields: (t) => ({
    email: t.string({ description: 'The e-mail address they signed in with.', resolve: (v) => v.principal.user.email }),
    environment: t.field({ type: EnvironmentEnum, description: 'The deployment: DEVELOPMENT, STAGING or PRODUCTION.', resolve: (v) => v.environment }),
    account: t.field({ type: ViewerAccountRef, description: 'Their account.', resolve: (v) => ({ principal: v.principal, account: v.principal.account }) }),
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
    nullable: true,
    description:
      'Creates an API key for the signed-in account (dashboard session only). The answer is the only time the key is shown. Null with its error when refused.',
    args: {
      name: t.arg.string({ required: true, description: 'A name to recognise the key by: 1-64 characters, no control characters.' }),
      scopes: t.arg({ type: [ScopeEnum], description: 'What the key may do (default: READ and WRITE).' }),
    },
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
    nullable: true,
    description:
      "Revokes one of the signed-in account's keys, effective at once (dashboard session only). Null with a NOT_FOUND error when the account has no such key.",
    args: { id: t.arg.id({ required: true, description: 'The key id (key_…).' }) },
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
