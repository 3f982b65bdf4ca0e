import { MongoServerError, type Db } from 'mongodb';
import type { NonceRepo } from '../../ports/store';
import { takeNonce, type NonceCounter } from '../nonceCounter';

type CounterDoc = NonceCounter & { _id: string };

/** Compare-and-swap rounds a take may lose before it gives up: each loss is another taker's success, so this bounds the concurrent takers of one counter. */
const TAKE_ATTEMPTS = 100;

const isDuplicateKey = (e: unknown) => e instanceof MongoServerError && e.code === 11000;

/**
 * Nonce counters on MongoDB: collection `nonces`, one document per chain and
 * address. A take reads the counter, computes the next state (takeNonce) and
 * writes it only if the counter is still what it read (compare-and-swap on
 * all three fields), retrying when another instance took one meanwhile.
 * Classic operators only: no pipeline update, which MongoDB-compatible
 * servers may lack.
 */
export function createMongoNonces(db: Db): NonceRepo {
  const nonces = db.collection<CounterDoc>('nonces');
  return {
    async take(key, chainPending, nowMs, gapMs) {
      for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
        const doc = await nonces.findOne({ _id: key });
        const { nonce, after } = takeNonce(doc && { next: doc.next, seen: doc.seen, seenAt: doc.seenAt }, chainPending, nowMs, gapMs);
        if (doc === null) {
          try {
            await nonces.insertOne({ _id: key, ...after });
            return nonce;
          } catch (e) {
            // Another taker created the counter first: take from it.
            if (!isDuplicateKey(e)) throw e;
            continue;
          }
        }
        const swapped = await nonces.findOneAndUpdate({ _id: key, next: doc.next, seen: doc.seen, seenAt: doc.seenAt }, { $set: after });
        if (swapped) return nonce;
      }
      throw new Error(`nonce ${key}: lost ${TAKE_ATTEMPTS} compare-and-swap rounds to other takers in a row`);
    },
    async chainStillSince(key, chainPending) {
      const doc = await nonces.findOne({ _id: key, seen: chainPending }, { projection: { seenAt: 1 } });
      return doc?.seenAt ?? null;
    },
    async giveBack(key, nonce) {
      // Only while it is still the last one handed out: the guard on `next` makes a later take win over the give-back.
      await nonces.updateOne({ _id: key, next: nonce + 1 }, { $set: { next: nonce } });
    },
  };
}
