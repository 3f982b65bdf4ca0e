import { z } from './zod';
import type { Agree } from './viewAgreement';
import { intentSchema } from './schemas';
import { decisionSchema } from './standing';
import { EXAMPLES } from './examples';
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from '../../domain/webhooks';
import { createWebhookSchema } from '../../domain/schemas/webhooks';
import type { CreatedWebhookView, DeliveryView, WebhookView } from '../../app/webhooks/webhookView';

/** The webhook bodies of the OpenAPI document (request and answers), with their examples. */

const timestamp = (description: string) => z.iso.datetime().meta({ description, examples: ['2026-01-31T12:00:00.000Z'] });
const WEBHOOK_ID = 'svc_webhook_0123456789abcdef0123456789abcdef';
const MESSAGE_ID = 'msg_0123456789abcdef0123456789abcdef';

export const createWebhookBodySchema = createWebhookSchema.openapi('CreateWebhookRequest', { description: 'Unknown fields are refused' });

const webhookFields = {
  id: z.string().meta({ description: 'The endpoint id (svc_webhook_ and 32 hex characters)', examples: [WEBHOOK_ID] }),
  url: z.string().meta({ description: 'Where deliveries are POSTed', examples: ['https://example.com/hooks/intents'] }),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ description: 'The events delivered to it' }),
  description: z.union([z.string(), z.null()]).meta({ description: 'For people; null when none was given' }),
  createdAt: timestamp('When the endpoint was registered'),
};

export const webhookSchema = z
  .strictObject(webhookFields)
  .openapi('Webhook', { description: 'A webhook endpoint (its signing secret is shown only when it is created)' });

export const createdWebhookSchema = z
  .strictObject({
    ...webhookFields,
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      .meta({
        description: 'The signing secret (whsec_ and base64 of 32 bytes), shown this once: verify deliveries with it (any Standard Webhooks library)',
        examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      }),
  })
  .openapi('CreatedWebhook', { description: 'A new webhook endpoint and its signing secret, which is never shown again' });

export const webhookListSchema = z
  .strictObject({ webhooks: z.array(webhookSchema).meta({ description: 'Newest first (at most 20 per account)' }) })
  .openapi('WebhookList', { description: "The account's webhook endpoints" });

const testData = z.strictObject({
  webhookId: z.string().meta({ description: 'The endpoint tested' }),
  message: z.string().meta({ description: 'For people' }),
});

export const deliverySchema = z
  .strictObject({
    id: z.string().meta({
      description: 'The message id: the webhook-id header of every attempt (msg_…); use it to drop repeats (delivery is at-least-once)',
      examples: [MESSAGE_ID],
    }),
    webhookId: z.string().meta({ description: 'The endpoint it is owed to', examples: [WEBHOOK_ID] }),
    eventType: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]).meta({ description: 'The event' }),
    status: z.enum(DELIVERY_STATUSES).meta({ description: 'pending (not delivered yet: retried), delivered (a 2xx answer), failed (no 2xx within 24 h)' }),
    attempts: z.number().int().min(0).meta({ description: 'Attempts so far' }),
    nextAttemptAt: z.union([timestamp('When the next attempt is due'), z.null()]).meta({ description: 'When the next attempt is due; null unless pending' }),
    lastStatusCode: z
      .union([z.number().int(), z.null()])
      .meta({ description: "The endpoint's last HTTP status; null before the first attempt or when it did not answer" }),
    lastError: z.union([z.string(), z.null()]).meta({ description: 'Why the last attempt failed; null when none did' }),
    createdAt: timestamp('When the event happened'),
    deliveredAt: z.union([timestamp('When the endpoint answered 2xx'), z.null()]).meta({ description: 'When the endpoint answered 2xx; null until then' }),
    payload: z
      .strictObject({
        type: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]).meta({ description: 'The event' }),
        timestamp: timestamp('When the event happened'),
        data: z.union([intentSchema, decisionSchema, testData]).meta({
          description:
            'The intent as GET /intents/{intentId} answers it (intent events), the decision as GET /standing-intents/{standingIntentId}/decisions lists it (standing intent events), or the test event',
        }),
      })
      .meta({ description: 'The JSON body every attempt POSTs (signed: webhook-id, webhook-timestamp, webhook-signature)' }),
  })
  .openapi('WebhookDelivery', { description: "One entry of an endpoint's delivery log" });

export const deliveryPageSchema = z
  .strictObject({
    deliveries: z.array(deliverySchema).meta({ description: 'Newest first, at most `first` (≤ 100)' }),
    pageInfo: z
      .strictObject({
        hasNextPage: z.boolean().meta({ description: 'Whether older deliveries follow' }),
        endCursor: z.union([z.string(), z.null()]).meta({ description: 'Pass as `after` for the next page; null when the page is empty' }),
      })
      .meta({ description: 'Where this page ends' }),
  })
  .openapi('WebhookDeliveryPage', { description: "A page of an endpoint's delivery log" });

export const webhookIdParam = z.object({
  webhookId: z
    .string()
    .meta({ description: "A webhook endpoint id (any other value, or another account's endpoint, is 404 WEBHOOK_NOT_FOUND)", examples: [WEBHOOK_ID] }),
});

const webhook = {
  id: WEBHOOK_ID,
  url: 'https://example.com/hooks/intents',
  events: ['intent.completed', 'intent.failed'],
  description: 'Order service',
  createdAt: '2026-01-31T12:00:00.000Z',
};

export const WEBHOOK_EXAMPLES = {
  create: { url: 'https://example.com/hooks/intents', events: ['intent.completed', 'intent.failed'], description: 'Order service' },
  created: { ...webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  webhook,
  list: { webhooks: [webhook] },
  delivery: {
    id: MESSAGE_ID,
    webhookId: WEBHOOK_ID,
    eventType: 'intent.completed',
    status: 'delivered',
    attempts: 2,
    nextAttemptAt: null,
    lastStatusCode: 200,
    lastError: null,
    createdAt: '2026-01-31T12:00:05.000Z',
    deliveredAt: '2026-01-31T12:00:10.000Z',
    payload: { type: 'intent.completed', timestamp: '2026-01-31T12:00:05.000Z', data: EXAMPLES.intent },
  },
  testDelivery: {
    id: MESSAGE_ID,
    webhookId: WEBHOOK_ID,
    eventType: 'webhook.test',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: '2026-01-31T12:00:00.000Z',
    lastStatusCode: null,
    lastError: null,
    createdAt: '2026-01-31T12:00:00.000Z',
    deliveredAt: null,
    payload: {
      type: 'webhook.test',
      timestamp: '2026-01-31T12:00:00.000Z',
      data: { webhookId: WEBHOOK_ID, message: 'A test event: your endpoint receives and verifies webhooks.' },
    },
  },
};

/** The views and their schemas agree (compile time), as schemas.ts checks the others. */
const agreements: [
  Agree<z.output<typeof webhookSchema>, WebhookView>,
  Agree<z.output<typeof createdWebhookSchema>, CreatedWebhookView>,
  Agree<Omit<z.output<typeof deliverySchema>, 'payload'>, Omit<DeliveryView, 'payload'>>,
] = [true, true, true];
void agreements;
