/**
 * Webhooks: endpoints an account registers to hear of its
 * intents, and the deliveries the service owes them. Deliveries are signed as
 * Standard Webhooks specifies (webhook-id, webhook-timestamp,
 * webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">).
 */

/**
 * Events an endpoint may subscribe to. An endpoint names its events itself
 * (there is no default list): `standing_intent.skipped` (a decision not to
 * move, up to one a minute per standing intent) reaches only endpoints that
 * ask for it.
 */
export const WEBHOOK_EVENT_TYPES = [
  'intent.updated',
  'intent.completed',
  'intent.failed',
  'intent.cancelled',
  'standing_intent.rebalanced',
  'standing_intent.skipped',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event "send test event" delivers, whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type DeliveryEventType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Endpoints one account may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
/** Longest endpoint URL. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** One delivery attempt waits this long for the endpoint's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A registered endpoint as stored: its signing secret only encrypted. */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  description?: string;
  /** The signing secret (whsec_…), AES-256-GCM under a key derived from the master key, bound to the endpoint id. */
  secretCiphertext: string;
  /** Which master key sealed it (rotation). */
  secretKeyVersion: string;
  createdAt: string;
}

/** One message owed to one endpoint, retried until delivered or its retry window ends. */
export interface WebhookDelivery {
  /** msg_…: the webhook-id header, the same on every attempt. */
  id: string;
  endpointId: string;
  accountId: string;
  eventType: DeliveryEventType;
  /** The exact JSON body sent (and signed) on every attempt. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** A worker holds the delivery until then (a lease: no two workers send the same attempt). */
  claimedUntil: string | null;
  claimedBy: string | null;
}

/**
 * Waits after each failed attempt, in units of the base delay (5 s by
 * default): 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then every 8 h,
 * for as long as the retry window (24 h by default) lasts.
 */
export const RETRY_STEPS = [1, 6, 24, 120, 360, 720, 1440, 2880, 5760] as const;
/** The retry window in units of the base delay: 24 h at 5 s. */
export const RETRY_WINDOW_STEPS = 17_280;

/** The retry schedule: base delay (default 5000 ms); the window scales with it. */
export interface RetrySchedule {
  baseMs: number;
}

/**
 * When to try again after `attempts` failed attempts of a delivery created at
 * `createdAtMs`, or null when the next attempt would fall past the window
 * (the delivery has failed for good).
 */
export function nextAttemptAt(schedule: RetrySchedule, createdAtMs: number, attempts: number, nowMs: number): number | null {
  const step = RETRY_STEPS[Math.min(attempts, RETRY_STEPS.length) - 1] ?? RETRY_STEPS[0];
  const at = nowMs + step * schedule.baseMs;
  return at > createdAtMs + RETRY_WINDOW_STEPS * schedule.baseMs ? null : at;
}
