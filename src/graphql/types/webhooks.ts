import { builder } from '../builder';
import { describedValues } from './enums';
import { PAGE_ARG_DESCRIPTIONS, connectionTypes, paginate } from './connection';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  sendTestWebhook,
} from '../../app/webhooks/manageWebhooks';
import type { CreatedWebhookView, DeliveryView, WebhookView } from '../../app/webhooks/webhookView';
import type { DeliveryEventType, DeliveryStatus, WebhookEventType } from '../../domain/webhooks';
import { requirePrincipal, withoutNulls } from '../resolverHelpers';

const eventDescriptions: Record<WebhookEventType, string> = {
  'intent.updated': 'Every status an intent enters (pending, planning, executing, then completed, failed or cancelled).',
  'intent.completed': 'An intent completed.',
  'intent.failed': 'An intent failed.',
  'intent.cancelled': 'An intent was cancelled.',
  'standing_intent.rebalanced': 'A standing intent moved its funds: the decision, with its numbers and the rebalance intent.',
  'standing_intent.skipped': 'A standing intent decided not to move (up to one a minute each; only to endpoints that ask for it).',
};

const WebhookEventEnum = builder.enumType('WebhookEventType', {
  description: 'An event a webhook endpoint may subscribe to.',
  values: describedValues<WebhookEventType>(eventDescriptions),
});

const DeliveryEventEnum = builder.enumType('WebhookDeliveryEventType', {
  description: 'The event a delivery carries: an intent event, or the test event.',
  values: describedValues<DeliveryEventType>({ ...eventDescriptions, 'webhook.test': 'A test event (sendTestWebhook).' }),
});

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands.',
  values: describedValues<DeliveryStatus>({
    pending: 'Not delivered yet: attempted again at nextAttemptAt.',
    delivered: 'The endpoint answered 2xx.',
    failed: 'No 2xx answer within 24 h of the event: not attempted again.',
  }),
});

export const WebhookEndpointRef = builder.objectRef<WebhookView>('WebhookEndpoint').implement({
  description: 'An endpoint the service POSTs intent events to, signed as Standard Webhooks specifies (same resource as /v1/webhooks).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The endpoint id (svc_webhook_…).' }),
    url: t.exposeString('url', { description: 'Where deliveries are POSTed (http or https).' }),
    events: t.field({ type: [WebhookEventEnum], description: 'The events delivered to it.', resolve: (w) => w.events }),
    description: t.exposeString('description', { nullable: true, description: 'For people; null when none was given.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the endpoint was registered.' }),
  }),
});

const CreatedWebhookRef = builder.objectRef<CreatedWebhookView>('CreatedWebhookEndpoint').implement({
  description: 'A new webhook endpoint and its signing secret, which is never shown again.',
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpointRef, description: 'The endpoint.', resolve: (w) => w }),
    secret: t.exposeString('secret', {
      description: 'The signing secret (whsec_…), shown this once: verify deliveries with it (any Standard Webhooks library).',
    }),
  }),
});

const DeliveryRef = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  description: "One entry of an endpoint's delivery log: a message owed to it, retried until a 2xx answer or 24 h.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The message id: the webhook-id header of every attempt (msg_…).' }),
    webhookId: t.exposeID('webhookId', { description: 'The endpoint it is owed to.' }),
    eventType: t.field({ type: DeliveryEventEnum, description: 'The event.', resolve: (d) => d.eventType }),
    status: t.field({ type: DeliveryStatusEnum, description: 'Where the delivery stands.', resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts', { description: 'Attempts so far.' }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next attempt is due; null unless pending.' }),
    lastStatusCode: t.exposeInt('lastStatusCode', {
      nullable: true,
      description: "The endpoint's last HTTP status; null before the first attempt or when it did not answer.",
    }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'Why the last attempt failed; null when none did.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the event happened.' }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true, description: 'When the endpoint answered 2xx; null until then.' }),
    payload: t.field({ type: 'JSON', description: 'The JSON body every attempt POSTs: {type, timestamp, data}.', resolve: (d) => d.payload as never }),
  }),
});

const DeliveryConnectionRef = connectionTypes<DeliveryView, DeliveryView>(
  'WebhookDelivery',
  DeliveryRef,
  { edge: 'A delivery', one: 'delivery', many: 'deliveries', within: 'log', connection: "A page of an endpoint's delivery log, newest first." },
  (d) => d,
);

builder.queryField('webhookEndpoints', (t) =>
  t.field({
    type: [WebhookEndpointRef],
    nullable: true,
    description: "The account's webhook endpoints, newest first, without their secrets (same as GET /v1/webhooks); null with its error when refused.",
    admission: 'listWebhooks',
    resolve: (_root, _args, ctx) => listWebhookEndpoints(ctx.deps, requirePrincipal(ctx)),
  }),
);

builder.queryField('webhookEndpoint', (t) =>
  t.field({
    type: WebhookEndpointRef,
    nullable: true,
    description: "One of the account's webhook endpoints (same as GET /v1/webhooks/:webhookId); null with a WEBHOOK_NOT_FOUND error when there is none.",
    args: { id: t.arg.id({ required: true, description: 'The endpoint id (svc_webhook_…).' }) },
    admission: 'getWebhook',
    resolve: (_root, args, ctx) => getWebhookEndpoint(ctx.deps, requirePrincipal(ctx), String(args.id)),
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: DeliveryConnectionRef,
    nullable: true,
    description:
      "An endpoint's delivery log, newest first (same as GET /v1/webhooks/:webhookId/deliveries), by Relay cursors both ways; null with its error when refused.",
    args: {
      endpointId: t.arg.id({ required: true, description: 'The endpoint (svc_webhook_…).' }),
      first: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.first }),
      after: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.after }),
      last: t.arg.int({ description: PAGE_ARG_DESCRIPTIONS.last }),
      before: t.arg.string({ description: PAGE_ARG_DESCRIPTIONS.before }),
    },
    admission: 'listWebhookDeliveries',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const id = String(args.endpointId);
      return paginate(args, (page) => listWebhookDeliveries(ctx.deps, principal, id, page), ctx);
    },
  }),
);

const CreateWebhookInput = builder.inputType('CreateWebhookEndpointInput', {
  description: 'A webhook endpoint to register.',
  fields: (t) => ({
    url: t.string({
      required: true,
      description:
        'Where to POST deliveries: http or https, at most 2048 characters; its host must resolve to public addresses (a sandbox also allows loopback).',
    }),
    events: t.field({ type: [WebhookEventEnum], required: true, description: 'The events to deliver, at least one, without repeats.' }),
    description: t.string({ description: 'For people, at most 256 characters.' }),
  }),
});

builder.mutationField('createWebhookEndpoint', (t) =>
  t.field({
    type: CreatedWebhookRef,
    nullable: true,
    description:
      'Registers a webhook endpoint and answers its signing secret, the only time it is shown (same as POST /v1/webhooks). Null with its error when refused.',
    args: { input: t.arg({ type: CreateWebhookInput, required: true, description: 'The endpoint.' }) },
    admission: 'createWebhook',
    resolve: (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      const body = withoutNulls({ url: args.input.url, events: args.input.events, description: args.input.description });
      return createWebhookEndpoint(ctx.deps, principal, body);
    },
  }),
);

builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.field({
    type: 'Boolean',
    nullable: true,
    description:
      'Deletes a webhook endpoint and drops the deliveries still owed to it (same as DELETE /v1/webhooks/:webhookId): true when deleted; null with its error when refused (WEBHOOK_NOT_FOUND).',
    args: { id: t.arg.id({ required: true, description: 'The endpoint to delete (svc_webhook_…).' }) },
    admission: 'deleteWebhook',
    resolve: async (_root, args, ctx) => {
      const principal = requirePrincipal(ctx);
      return (await deleteWebhookEndpoint(ctx.deps, principal, String(args.id)), true);
    },
  }),
);

builder.mutationField('sendTestWebhook', (t) =>
  t.field({
    type: DeliveryRef,
    nullable: true,
    description:
      'Queues a webhook.test event to the endpoint, signed and retried like any delivery (same as POST /v1/webhooks/:webhookId/test); answers the pending delivery. Null with its error when refused.',
    args: { endpointId: t.arg.id({ required: true, description: 'The endpoint to test (svc_webhook_…).' }) },
    admission: 'sendTestWebhook',
    resolve: (_root, args, ctx) => sendTestWebhook(ctx.deps, requirePrincipal(ctx), String(args.endpointId)),
  }),
);
