import { randomBytes } from 'node:crypto';
import { MongoServerError, type Db, type MongoClient } from 'mongodb';
import type { StoreCapabilities } from '../../ports/store';

export type { StoreCapabilities };

/** The required capabilities, and why the service needs each. */
export const REQUIRED: Readonly<Partial<Record<keyof StoreCapabilities, string>>> = {
  uniqueIndexes: 'unique indexes (wallet ids, API key hashes and idempotency keys rely on them)',
  conditionalUpdates: 'findOneAndUpdate with $inc, a guarded filter, upsert and returnDocument "after" (rate windows and credits rely on it)',
};

/** A required capability is missing: the service cannot run on this server. */
export class MissingCapabilityError extends Error {
  override readonly name = 'MissingCapabilityError';
}

const PROBE = '_capabilityProbe';

async function ok(fn: () => Promise<unknown>): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch {
    return false;
  }
}

/** Probes the server; the scratch collection is dropped (or emptied) afterwards. */
export async function probeCapabilities(client: MongoClient, db: Db): Promise<StoreCapabilities> {
  const run = randomBytes(6).toString('hex');
  const probe = db.collection<{ _id: string; k?: string; n?: number }>(PROBE);
  try {
    const uniqueIndexes = await ok(async () => {
      await probe.createIndex({ k: 1 }, { unique: true, name: 'k_unique' });
      await probe.insertOne({ _id: `${run}-u1`, k: run });
      try {
        await probe.insertOne({ _id: `${run}-u2`, k: run });
      } catch (e) {
        if (e instanceof MongoServerError && e.code === 11000) return;
        throw e;
      }
      throw new Error('a duplicate key was accepted');
    });
    const conditionalUpdates = await ok(async () => {
      const first = await probe.findOneAndUpdate({ _id: `${run}-c`, n: { $not: { $gte: 2 } } }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'after' });
      if (first?.n !== 1) throw new Error('no document after the upsert');
    });
    const transactions = await ok(async () => {
      const session = client.startSession();
      try {
        await session.withTransaction(async () => {
          await probe.insertOne({ _id: `${run}-t` }, { session });
        });
      } finally {
        await session.endSession();
      }
    });
    const changeStreams = await ok(async () => {
      const stream = probe.watch([], { maxAwaitTimeMS: 50 });
      try {
        await stream.tryNext();
      } finally {
        await stream.close();
      }
    });
    const ttlIndexes = await ok(async () => {
      await probe.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 3600, name: 'expires_ttl' });
      const indexes = await probe.listIndexes().toArray();
      if (!indexes.some((i) => i.name === 'expires_ttl' && typeof i.expireAfterSeconds === 'number')) throw new Error('TTL option dropped');
    });
    const serverClock = await ok(async () => {
      const hello = await db.admin().command({ hello: 1 });
      if (!(hello.localTime instanceof Date)) throw new Error('no localTime');
    });
    return { uniqueIndexes, conditionalUpdates, transactions, changeStreams, ttlIndexes, serverClock };
  } finally {
    await probe.drop().catch(() => probe.deleteMany({}).catch(() => undefined));
  }
}

/** Throws MissingCapabilityError, in one line naming every required capability the server lacks. */
export function assertRequired(caps: StoreCapabilities): void {
  const missing = (Object.keys(REQUIRED) as (keyof StoreCapabilities)[]).filter((k) => !caps[k]);
  if (missing.length === 0) return;
  throw new MissingCapabilityError(`The MongoDB server lacks what the service needs: ${missing.map((k) => REQUIRED[k]).join('; ')}`);
}
