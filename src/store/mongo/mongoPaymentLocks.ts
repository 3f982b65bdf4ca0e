import { MongoServerError, type Db } from 'mongodb';
import type { PaymentLockRepo } from '../../ports/store';

interface LockDoc {
  /** The lock's key (the payer): its built-in unique index makes two owners' first acquisitions collide instead of both winning. */
  _id: string;
  owner: string;
  /** Held until (ms since the epoch, the shared clock). */
  until: number;
  /** `until` as a date, for the TTL index: a lock left by a crashed holder is removed by the server. */
  expireAt: Date;
}

const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

/**
 * Per-payer locks on MongoDB: collection `paymentLocks`, one document per
 * held lock, taken like an intent lease (mongoIntentLeases.ts): one
 * conditional upsert whose filter says "mine, or expired"; a live lock of
 * another owner fails the filter and the upsert collides on `_id` (11000),
 * which is the refusal.
 */
export function createMongoPaymentLocks(db: Db): PaymentLockRepo {
  const locks = db.collection<LockDoc>('paymentLocks');
  return {
    async acquire(key, owner, nowMs, untilMs) {
      try {
        const doc = await locks.findOneAndUpdate(
          { _id: key, $or: [{ until: { $lt: nowMs } }, { owner }] },
          { $set: { owner, until: untilMs, expireAt: new Date(untilMs) } },
          { upsert: true, returnDocument: 'after' },
        );
        return doc?.owner === owner;
      } catch (e) {
        if (isDuplicateKey(e)) return false;
        throw e;
      }
    },
    async release(key, owner) {
      await locks.deleteOne({ _id: key, owner });
    },
  };
}
