import { createHash } from 'node:crypto';
import type { WebhookRepo } from '../../ports/store';
import type { WebhookDelivery, WebhookEventType } from '../../domain/webhooks';
import type { StandingDecision } from '../../domain/standingIntent';
import { toDecisionView } from '../standing/standingView';

/** The event a decision owes: a move, or a decision not to move. */
export function decisionEvent(decision: Pick<StandingDecision, 'outcome'>): WebhookEventType {
  return decision.outcome === 'rebalanced' ? 'standing_intent.rebalanced' : 'standing_intent.skipped';
}

/** Derived, not random: recording the same decision twice (a retry) writes one delivery per endpoint. */
export function decisionMessageId(endpointId: string, decisionId: string, event: WebhookEventType): string {
  return `msg_${createHash('sha256').update(`${endpointId}:${decisionId}:${event}`).digest('hex').slice(0, 32)}`;
}

/**
 * Records the deliveries a settled decision owes: one per endpoint of the
 * account subscribed to its event (an endpoint names its events itself, so
 * `standing_intent.skipped` reaches only those that ask for it). The
 * dispatcher's worker, on any instance, sends them like every delivery.
 * True when one was added (the caller wakes the worker).
 */
export async function recordDecisionDeliveries(
  deps: { store: { webhooks: WebhookRepo }; clock: { now(): Date } },
  decision: StandingDecision,
): Promise<boolean> {
  const endpoints = await deps.store.webhooks.listEndpoints(decision.accountId);
  const type = decisionEvent(decision);
  const subscribed = endpoints.filter((e) => e.events.includes(type));
  if (subscribed.length === 0) return false;
  const now = deps.clock.now().toISOString();
  const body = JSON.stringify({ type, timestamp: now, data: toDecisionView(decision) });
  let added = false;
  for (const endpoint of subscribed) {
    const delivery: WebhookDelivery = {
      id: decisionMessageId(endpoint.id, decision.id, type),
      endpointId: endpoint.id,
      accountId: endpoint.accountId,
      eventType: type,
      body,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lastStatusCode: null,
      lastError: null,
      createdAt: now,
      deliveredAt: null,
      claimedUntil: null,
      claimedBy: null,
    };
    if (await deps.store.webhooks.insertDelivery(delivery)) added = true;
  }
  return added;
}
