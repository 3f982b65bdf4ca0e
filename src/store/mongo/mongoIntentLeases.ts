import { MongoServerError, type Db } from 'mongodb';
import type { IntentLeaseRepo } from '../../ports/store';

interface LeaseDoc {
  /** The intent id: its built-in unique index makes two owners' first acquisitions collide instead of both winning. */
  _id: string;
  owner: string;
  /** Held until (ms since the epoch, the shared clock). */
  until: number;
}

const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

/**
 * Intent leases on MongoDB: collection `intentLeases`, one document per
 * leased intent. `acquire` is one conditional upsert whose filter says "mine,
 * or expired": a live lease of another owner fails the filter, and the upsert
 * then collides with it on `_id` (11000), which is the refusal.
 */
export function createMongoIntentLeases(db: Db): IntentLeaseRepo {
  const leases = db.collection<LeaseDoc>('intentLeases');
  const ids = async (docs: Promise<{ _id: string }[]>) => (await docs).map((d) => d._id);
  return {
    async acquire(id, owner, nowMs, untilMs) {
      try {
        const doc = await leases.findOneAndUpdate(
          { _id: id, $or: [{ until: { $lt: nowMs } }, { owner }] },
          { $set: { owner, until: untilMs } },
          { upsert: true, returnDocument: 'after' },
        );
        return doc?.owner === owner;
      } catch (e) {
        if (isDuplicateKey(e)) return false;
        throw e;
      }
    },
    async renew(owner, untilMs) {
      await leases.updateMany({ owner }, { $set: { until: untilMs } });
      return ids(leases.find({ owner }, { projection: { _id: 1 } }).toArray());
    },
    async release(id, owner) {
      await leases.deleteOne({ _id: id, owner });
    },
    async releaseAll(owner, nowMs) {
      // Expired, not deleted: other engines look for expired leases, and find these at once.
      await leases.updateMany({ owner }, { $set: { owner: '', until: nowMs - 1 } });
    },
    async listExpired(nowMs, limit) {
      if (limit <= 0) return [];
      return ids(
        leases
          .find({ until: { $lt: nowMs } }, { projection: { _id: 1 } })
          .sort({ until: 1 })
          .limit(limit)
          .toArray(),
      );
    },
    async heldAmong(intentIds, nowMs) {
      if (intentIds.length === 0) return new Set();
      return new Set(await ids(leases.find({ _id: { $in: [...intentIds] }, until: { $gte: nowMs } }, { projection: { _id: 1 } }).toArray()));
    },
  };
}
