import type { WebhookDelivery, WebhookEndpoint } from '../../domain/webhooks';
import { DuplicateError, type DeliveryCursor, type WebhookRepo } from '../../ports/store';

const copy = <T>(v: T): T => structuredClone(v);

function newestFirst(a: DeliveryCursor, b: DeliveryCursor): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Webhook endpoints and deliveries in memory (ephemeral with the process, like the rest of the memory store). */
export function createMemoryWebhooks(): WebhookRepo {
  const endpoints = new Map<string, WebhookEndpoint>();
  const deliveries = new Map<string, WebhookDelivery>();
  const held = (d: WebhookDelivery | undefined, owner: string): d is WebhookDelivery => d !== undefined && d.claimedBy === owner && d.status === 'pending';
  return {
    async insertEndpoint(e) {
      if (endpoints.has(e.id)) throw new DuplicateError('webhookEndpoints.id');
      endpoints.set(e.id, copy(e));
    },
    async getEndpoint(id) {
      const e = endpoints.get(id);
      return e ? copy(e) : null;
    },
    async listEndpoints(accountId) {
      return [...endpoints.values()]
        .filter((e) => e.accountId === accountId)
        .sort(newestFirst)
        .map(copy);
    },
    async countEndpoints(accountId) {
      let n = 0;
      for (const e of endpoints.values()) if (e.accountId === accountId) n++;
      return n;
    },
    async deleteEndpoint(id) {
      if (!endpoints.delete(id)) return false;
      for (const [k, d] of deliveries) if (d.endpointId === id) deliveries.delete(k);
      return true;
    },
    async insertDelivery(d) {
      if (deliveries.has(d.id)) return false;
      deliveries.set(d.id, copy(d));
      return true;
    },
    async getDelivery(id) {
      const d = deliveries.get(id);
      return d ? copy(d) : null;
    },
    async listDeliveries(endpointId, { limit, after }) {
      return [...deliveries.values()]
        .filter((d) => d.endpointId === endpointId && (after === undefined || newestFirst(after, d) < 0))
        .sort(newestFirst)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async claimDue(now, leaseUntil, owner, skip) {
      const accounts = new Set(skip?.accounts);
      const skipped = new Set(skip?.endpoints);
      let due: WebhookDelivery | undefined;
      for (const d of deliveries.values()) {
        if (d.status !== 'pending' || d.nextAttemptAt === null || d.nextAttemptAt > now) continue;
        if (d.claimedUntil !== null && d.claimedUntil > now) continue;
        if (accounts.has(d.accountId) || skipped.has(d.endpointId)) continue;
        if (!due || d.nextAttemptAt < (due.nextAttemptAt as string)) due = d;
      }
      if (!due) return null;
      due.claimedUntil = leaseUntil;
      due.claimedBy = owner;
      return copy(due);
    },
    async finishAttempt(id, owner, outcome) {
      const d = deliveries.get(id);
      if (!held(d, owner)) return false;
      Object.assign(d, outcome, { claimedUntil: null, claimedBy: null });
      return true;
    },
    async release(id, owner) {
      const d = deliveries.get(id);
      if (!held(d, owner)) return false;
      d.claimedUntil = null;
      d.claimedBy = null;
      return true;
    },
  };
}
