import { MongoServerError, type Db, type Filter } from 'mongodb';
import type { WebhookDelivery, WebhookEndpoint } from '../../domain/webhooks';
import { DuplicateError, type WebhookRepo } from '../../ports/store';

/** Deliveries are kept this long after they were created (a TTL index on `expireAt`), whatever became of them. */
export const DELIVERY_RETENTION_DAYS = 30;

type EndpointDoc = WebhookEndpoint & { _id?: unknown };
type DeliveryDoc = WebhookDelivery & { _id?: unknown; expireAt?: Date };

const noId = { projection: { _id: 0, expireAt: 0 } } as const;
const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

function clean<T>(doc: (T & { _id?: unknown; expireAt?: unknown }) | null): T | null {
  if (!doc) return null;
  const { _id, expireAt, ...rest } = doc;
  void _id;
  void expireAt;
  return rest as T;
}

/**
 * Webhook endpoints (collection `webhookEndpoints`) and deliveries
 * (`webhookDeliveries`). A delivery is leased with one findOneAndUpdate whose
 * filter says "pending, due, and not leased or its lease run out", so on any
 * server with conditional updates two workers never take the same attempt.
 */
export function createMongoWebhooks(db: Db): WebhookRepo {
  const endpoints = db.collection<EndpointDoc>('webhookEndpoints');
  const deliveries = db.collection<DeliveryDoc>('webhookDeliveries');
  return {
    async insertEndpoint(e) {
      try {
        await endpoints.insertOne({ ...e });
      } catch (err) {
        if (isDuplicateKey(err)) throw new DuplicateError('webhookEndpoints.id');
        throw err;
      }
    },
    async getEndpoint(id) {
      return clean<WebhookEndpoint>(await endpoints.findOne({ id }, noId));
    },
    async listEndpoints(accountId) {
      const docs = await endpoints.find({ accountId }, noId).sort({ createdAt: -1, id: -1 }).toArray();
      return docs.map((d) => clean<WebhookEndpoint>(d) as WebhookEndpoint);
    },
    async countEndpoints(accountId) {
      return endpoints.countDocuments({ accountId });
    },
    async deleteEndpoint(id) {
      const r = await endpoints.deleteOne({ id });
      await deliveries.deleteMany({ endpointId: id });
      return r.deletedCount === 1;
    },
    async insertDelivery(d) {
      try {
        await deliveries.insertOne({ ...d, expireAt: new Date(Date.parse(d.createdAt) + DELIVERY_RETENTION_DAYS * 86_400_000) });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async getDelivery(id) {
      return clean<WebhookDelivery>(await deliveries.findOne({ id }, noId));
    },
    async listDeliveries(endpointId, { limit, after }) {
      if (limit <= 0) return [];
      const filter: Filter<DeliveryDoc> = { endpointId };
      if (after) filter.$or = [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, id: { $lt: after.id } }];
      const docs = await deliveries.find(filter, noId).sort({ createdAt: -1, id: -1 }).limit(limit).toArray();
      return docs.map((d) => clean<WebhookDelivery>(d) as WebhookDelivery);
    },
    async claimDue(now, leaseUntil, owner, skip) {
      const filter: Filter<DeliveryDoc> = { status: 'pending', nextAttemptAt: { $lte: now }, $or: [{ claimedUntil: null }, { claimedUntil: { $lte: now } }] };
      if (skip?.accounts?.length) filter.accountId = { $nin: [...skip.accounts] };
      if (skip?.endpoints?.length) filter.endpointId = { $nin: [...skip.endpoints] };
      const doc = await deliveries.findOneAndUpdate(
        filter,
        { $set: { claimedUntil: leaseUntil, claimedBy: owner } },
        { sort: { nextAttemptAt: 1 }, returnDocument: 'after', projection: { _id: 0, expireAt: 0 } },
      );
      return clean<WebhookDelivery>(doc);
    },
    async finishAttempt(id, owner, outcome) {
      const r = await deliveries.updateOne({ id, claimedBy: owner, status: 'pending' }, { $set: { ...outcome, claimedUntil: null, claimedBy: null } });
      return r.matchedCount === 1;
    },
    async release(id, owner) {
      const r = await deliveries.updateOne({ id, claimedBy: owner, status: 'pending' }, { $set: { claimedUntil: null, claimedBy: null } });
      return r.matchedCount === 1;
    },
  };
}
