import type { DeliveryEventType, DeliveryStatus, WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../domain/webhooks';

/** A webhook endpoint as both doors show it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  createdAt: string;
}

/** The answer to a creation: the endpoint and, this once, its signing secret. */
export interface CreatedWebhookView extends WebhookView {
  secret: string;
}

/** One entry of an endpoint's delivery log. */
export interface DeliveryView {
  /** The webhook-id header of every attempt (msg_…). */
  id: string;
  webhookId: string;
  eventType: DeliveryEventType;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  /** The JSON body every attempt sends: {type, timestamp, data}. */
  payload: unknown;
}

export function toWebhookView(e: WebhookEndpoint): WebhookView {
  return { id: e.id, url: e.url, events: [...e.events], description: e.description ?? null, createdAt: e.createdAt };
}

export function toDeliveryView(d: WebhookDelivery): DeliveryView {
  let payload: unknown;
  try {
    payload = JSON.parse(d.body);
  } catch {
    payload = d.body;
  }
  return {
    id: d.id,
    webhookId: d.endpointId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    payload,
  };
}
