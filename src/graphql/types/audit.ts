import { builder } from '../builder';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from './connection';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';
import { listAuditEvents, toAuditEventView, type AuditEventView } from '../../app/audit/listAuditEvents';
import { AUDIT_EVENT_TYPES, type AuditActor, type AuditEvent, type AuditEventType, type AuditSubject } from '../../domain/audit';

/**
 * The audit log over GraphQL: Query.auditEvents, a connection like `intents`,
 * over the same use-case as GET /v1/audit-events.
 *
 * AuditEvent is not a Node: the log is append-only and read as a list (the
 * store has no read of one event by id), so `node(id:)` could not fetch it.
 * Its `id` is still its unique svc_audit_… id.
 */

const EVENT_TYPE_DESCRIPTIONS: Record<AuditEventType, string> = {
  'policy.created': 'A spending policy was created.',
  'policy.updated': 'A spending policy was replaced (its version went up).',
  'policy.deleted': 'A spending policy was deleted.',
  'wallet.policy_set': 'A wallet was given its own spending policy.',
  'wallet.policy_removed': "A wallet's own spending policy was removed.",
  'intent.created': 'An intent was accepted.',
  'intent.denied': 'An intent was refused by a spending policy (details: rule, limit, requested).',
  'intent.completed': 'An intent completed (details: finalAmount, apy).',
  'intent.failed': 'An intent failed (details: error code and message).',
  'intent.cancelled': 'An intent was cancelled (details: completedSteps, the steps that ran before it stopped).',
  'apikey.created': 'An API key was issued (details: its display prefix, name and scopes; never the key).',
  'apikey.revoked': 'An API key was revoked.',
  'webhook.created': "A webhook endpoint was registered (details: the URL's host and the events; never its secret).",
  'webhook.deleted': "A webhook endpoint was deleted (details: the URL's host).",
  'standing_intent.created': 'A standing intent was created (details: asset, amount and its moving rule).',
  'standing_intent.paused': 'A standing intent was paused: it decides nothing until it is resumed.',
  'standing_intent.resumed': 'A paused standing intent was resumed.',
  'standing_intent.deleted': 'A standing intent was deleted (its decisions with it).',
};

/** "wallet.policy_set" ↔ WALLET_POLICY_SET. */
const AuditEventTypeEnum = builder.enumType('AuditEventType', {
  description: 'What an audit event records.',
  values: Object.fromEntries(AUDIT_EVENT_TYPES.map((t) => [t.toUpperCase().replace(/\./g, '_'), { value: t, description: EVENT_TYPE_DESCRIPTIONS[t] }])),
});

const AuditActorTypeEnum = builder.enumType('AuditActorType', {
  description: 'What kind of actor acted.',
  values: {
    API_KEY: { value: 'apiKey' as const, description: 'An API key of the account (actor id: the key id).' },
    ADMIN: { value: 'admin' as const, description: 'The operator, through the admin API (no id).' },
    SYSTEM: { value: 'system' as const, description: 'The service itself, e.g. the engine finishing an intent (no id).' },
    SESSION: { value: 'session' as const, description: 'A person signed in to the dashboard (actor id: their user id).' },
  },
});

const AuditActorRef = builder.objectRef<AuditActor>('AuditActor').implement({
  description: 'Who acted.',
  fields: (t) => ({
    type: t.field({ type: AuditActorTypeEnum, description: 'API key, operator, the service, or a signed-in person.', resolve: (a) => a.type }),
    id: t.exposeID('id', { nullable: true, description: 'The key id (API_KEY) or user id (SESSION); null for ADMIN and SYSTEM.' }),
  }),
});

const AuditSubjectRef = builder.objectRef<AuditSubject>('AuditSubject').implement({
  description: 'What the event is about: the ids that apply, the others null.',
  fields: (t) => ({
    walletId: t.id({ nullable: true, description: 'The wallet concerned.', resolve: (s) => s.walletId ?? null }),
    intentId: t.id({ nullable: true, description: 'The intent concerned.', resolve: (s) => s.intentId ?? null }),
    policyId: t.id({ nullable: true, description: 'The spending policy concerned.', resolve: (s) => s.policyId ?? null }),
    keyId: t.id({ nullable: true, description: 'An API key id (never the key).', resolve: (s) => s.keyId ?? null }),
    webhookId: t.id({ nullable: true, description: 'The webhook endpoint concerned.', resolve: (s) => s.webhookId ?? null }),
    standingIntentId: t.id({ nullable: true, description: 'The standing intent concerned.', resolve: (s) => s.standingIntentId ?? null }),
  }),
});

const AuditEventRef = builder.objectRef<AuditEventView>('AuditEvent').implement({
  description: "One entry of the account's audit log (same resource as GET /v1/audit-events). Never holds a secret.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'svc_audit_ and 32 hex characters.' }),
    at: t.expose('at', { type: 'DateTime', description: 'When it happened.' }),
    type: t.field({ type: AuditEventTypeEnum, description: 'What happened.', resolve: (e) => e.type }),
    actor: t.field({ type: AuditActorRef, description: 'Who acted.', resolve: (e) => e.actor }),
    subject: t.field({ type: AuditSubjectRef, description: 'What it is about.', resolve: (e) => e.subject }),
    details: t.expose('details', { type: 'JSON', description: 'What was decided, by type (see AuditEventType).' }),
  }),
});

const AuditEventConnectionRef = connectionTypes<AuditEvent, ReturnType<typeof toAuditEventView>>(
  'AuditEvent',
  AuditEventRef,
  { edge: 'An audit event', one: 'event', many: 'events', within: 'log', connection: 'A page of audit events, newest first.' },
  toAuditEventView,
);

builder.queryField('auditEvents', (t) =>
  t.field({
    type: AuditEventConnectionRef,
    nullable: true,
    description:
      "The account's audit log, newest first, kept 90 days (same as GET /v1/audit-events), by Relay cursors both ways; null with its error when refused.",
    args: {
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
      type: t.arg({ type: AuditEventTypeEnum, description: 'Only events of this type.' }),
      walletId: t.arg.id({ description: 'Only events about this wallet.' }),
      intentId: t.arg.id({ description: 'Only events about this intent.' }),
      since: t.arg({ type: 'DateTime', description: 'Only events at or after this instant.' }),
    },
    admission: 'listAuditEvents',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const filters = withoutNulls({
        type: args.type,
        since: args.since,
        walletId: args.walletId == null ? undefined : String(args.walletId),
        intentId: args.intentId == null ? undefined : String(args.intentId),
      });
      return paginate(
        args,
        (page) =>
          listAuditEvents(ctx.deps, principal, withoutNulls({ ...filters, limit: page.first, cursor: page.after }), { cursor: 'after', limit: 'first' }),
        ctx,
      );
    },
  }),
);
