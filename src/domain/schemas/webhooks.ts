import { z } from 'zod';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_TYPES } from '../webhooks';

/** Body of POST /webhooks and input of createWebhookEndpoint (both doors validate with it). */
export const createWebhookSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an absolute http or https URL' })
    .max(MAX_WEBHOOK_URL_LENGTH, `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
    .refine((u) => !/^https?:\/\/[^/?#]*@/i.test(u), 'url must not carry a user name or password')
    .meta({
      description: 'Where deliveries are POSTed: http or https; in production its host must resolve to public addresses only',
      examples: ['https://example.com/hooks/intents'],
    }),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `events may contain ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'events must be a list' })
    .min(1, 'events must name at least one event')
    .refine((l) => new Set(l).size === l.length, 'events must not repeat an event')
    .meta({
      description:
        'The events to deliver: intent.updated (every status an intent enters), intent.completed, intent.failed, intent.cancelled (an intent ended at your request), standing_intent.rebalanced (a standing intent moved its funds), standing_intent.skipped (it decided not to: up to one a minute each)',
      examples: [['intent.completed', 'intent.failed']],
    }),
  description: z
    .string({ error: 'description must be a string' })
    .trim()
    .max(256, 'description must be at most 256 characters')
    .optional()
    .meta({ description: 'For people, at most 256 characters', examples: ['Order service'] }),
});
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;

/** Query of GET /webhooks/:webhookId/deliveries and Query.webhookDeliveries. */
export const listDeliveriesSchema = z.strictObject({
  first: z.coerce
    .number({ error: 'first must be a whole number' })
    .int('first must be a whole number')
    .min(1, 'first must be at least 1')
    .max(100, 'first must be at most 100')
    .default(20)
    .meta({ description: 'Page size, 1-100 (default 20)' }),
  after: z.string().min(1, 'after must not be empty').optional().meta({ description: '`pageInfo.endCursor` of the previous page' }),
});
