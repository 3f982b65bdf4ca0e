import { MongoClient, MongoServerError, type Db } from 'mongodb';
import type { Account, ApiKeyRecord, IdempotencyRecord, Wallet, WalletKeyRecord } from '../../domain/types';
import { DuplicateError, type Store } from '../../ports/store';
import { ensureIndexes } from './indexes';
import { assertRequired, probeCapabilities, type StoreCapabilities } from './capabilities';
import { followServerClock, type ServerClock } from './serverClock';
import { createSystemClock, type Clock } from '../../domain/clock';
import { createMongoIntents } from './mongoIntents';
import { createMongoIntentEvents } from './mongoIntentEvents';
import { createMongoIntentChanges } from './mongoIntentChanges';
import { createMongoAuditLog } from './mongoAuditLog';
import { claimEnvironment, createMongoSessions, createMongoUsers } from './mongoSignIn';
import { createMongoPolicies } from './mongoPolicies';
import { createMongoWebhooks } from './mongoWebhooks';
import { createMongoRateHistory } from './mongoRateHistory';
import { createMongoPaymentLocks } from './mongoPaymentLocks';
import { createMongoIntentLeases } from './mongoIntentLeases';
import { createMongoNonces } from './mongoNonces';
import { createMongoPositionLedger } from './mongoPositionLedger';
import { createMongoStandingDecisions, createMongoStandingIntents } from './mongoStandingIntents';

type Doc<T> = T & { _id?: unknown };

/** Strips Mongo's `_id` so records round-trip to the domain shape. */
function clean<T>(doc: Doc<T> | null): T | null {
  if (!doc) return null;
  const { _id, ...rest } = doc;
  void _id;
  return rest as T;
}

const isDuplicateKey = (e: unknown): e is MongoServerError => e instanceof MongoServerError && e.code === 11000;

/**
 * The fields of the unique index a duplicate-key error names, as the memory
 * adapter names them (`accountId_userId`): from `keyPattern`, else `keyValue`,
 * else the index name in the message (`index: accountId_1_userId_1 dup key`),
 * since MongoDB-compatible servers do not all send the first two.
 */
export function duplicateFields(e: MongoServerError): string {
  const withKeys = e as MongoServerError & { keyPattern?: Record<string, unknown>; keyValue?: Record<string, unknown> };
  const keys = withKeys.keyPattern ?? withKeys.keyValue;
  if (keys && Object.keys(keys).length > 0) return Object.keys(keys).join('_');
  const index = /index: (\S+)/.exec(e.message)?.[1];
  if (index) return index.replace(/_-?1(?=_|$)/g, '');
  return 'unknown';
}

/** Turns E11000 into the port's DuplicateError, naming the index as the memory adapter does (`wallets.accountId_userId`). */
async function guardDuplicate<T>(collection: string, p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (isDuplicateKey(e)) throw new DuplicateError(`${collection}.${duplicateFields(e)}`);
    throw e;
  }
}

/** An idempotency document as the port's record: the driver's `_id` and the TTL date are storage details. */
function toIdempotencyRecord(doc: (IdempotencyRecord & { _id?: unknown; expiresAtDate?: Date }) | null): IdempotencyRecord | null {
  if (!doc) return null;
  const { _id, expiresAtDate, ...record } = doc;
  void _id;
  void expiresAtDate;
  return record;
}

/** MongoDB adapter (official driver); collections and indexes per docs/architecture.md. */
/** `o.clock`: the service's clock (its time, corrected by the server's offset when the server reports one, is the store's). */
export async function createMongoStore(uri: string, dbName?: string, o: { clock?: Clock } = {}): Promise<Store> {
  const base = o.clock ?? createSystemClock();
  // Longer than a replica-set election (~12 s), so a failover is waited out, not failed; writes and reads retried once by the driver.
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 15_000, retryWrites: true, retryReads: true });
  const db: Db = client.db(dbName);
  let capabilities: StoreCapabilities;
  let serverClock: ServerClock | undefined;
  try {
    await client.connect();
    capabilities = await probeCapabilities(client, db);
    assertRequired(capabilities);
    await ensureIndexes(db, capabilities);
    // Windows shared by instances are cut on the server's clock when it reports one.
    serverClock = capabilities.serverClock ? await followServerClock(db, base) : undefined;
  } catch (e) {
    // A failed start must not leave the client's sockets and timers holding the process open.
    await client.close().catch(() => undefined);
    throw e;
  }
  // The store's time: the server's when it reports one, else the service's clock.
  const clock: Pick<Clock, 'now'> = serverClock ? { now: serverClock.now } : { now: () => base.now() };
  const accounts = db.collection<Doc<Account>>('accounts');
  const apiKeys = db.collection<Doc<ApiKeyRecord>>('apiKeys');
  const wallets = db.collection<Doc<Wallet>>('wallets');
  const walletKeys = db.collection<Doc<WalletKeyRecord>>('walletKeys');
  const usage = db.collection<{ _id: string; value: number; expiresAt: Date }>('usage');
  const idem = db.collection<Doc<IdempotencyRecord> & { expiresAtDate: Date }>('idempotency');
  const noId = { projection: { _id: 0 } } as const;
  // _id is the claim key: its built-in unique index makes a second claim fail on every compatible server.
  const paymentNonces = db.collection<{ _id: string; payer: string; network: string; at: string }>('paymentNonces');

  return {
    kind: 'mongo',
    capabilities,
    ...(serverClock ? { clock: { now: serverClock.now } } : {}),
    accounts: {
      async insert(a) {
        await guardDuplicate('accounts', accounts.insertOne({ ...a }));
      },
      async get(id) {
        return clean(await accounts.findOne({ id }, noId));
      },
    },
    apiKeys: {
      async insert(k) {
        await guardDuplicate('apiKeys', apiKeys.insertOne({ ...k }));
      },
      async get(id) {
        return clean(await apiKeys.findOne({ id }, noId));
      },
      async findByHash(hash) {
        return clean(await apiKeys.findOne({ hash }, noId));
      },
      async listByAccount(accountId) {
        const docs = await apiKeys.find({ accountId }, noId).sort({ createdAt: 1 }).toArray();
        return docs.map((d) => clean(d) as ApiKeyRecord);
      },
      async revoke(id, at) {
        // The first revocation wins (a guarded $set, no pipeline update): later ones only report that the key exists.
        const r = await apiKeys.updateOne({ id, revokedAt: null }, { $set: { revokedAt: at } });
        return r.matchedCount > 0 || (await apiKeys.countDocuments({ id }, { limit: 1 })) > 0;
      },
      async recordUse(uses) {
        if (uses.length === 0) return;
        // One round trip per batch; the guard keeps lastUsedAt moving forward only (ISO strings order as times).
        await apiKeys.bulkWrite(
          uses.map(({ id, at }) => ({
            updateOne: {
              filter: { id, $or: [{ lastUsedAt: { $exists: false } }, { lastUsedAt: null }, { lastUsedAt: { $lt: at } }] },
              update: { $set: { lastUsedAt: at } },
            },
          })),
          { ordered: false },
        );
      },
    },
    wallets: {
      async insert(w) {
        await guardDuplicate('wallets', wallets.insertOne({ ...w }));
      },
      async getById(id) {
        return clean(await wallets.findOne({ id }, noId));
      },
      async getByUserId(accountId, userId) {
        return clean(await wallets.findOne({ accountId, userId }, noId));
      },
      async countByAccount(accountId) {
        return wallets.countDocuments({ accountId });
      },
      async setPolicy(walletId, policyId) {
        await wallets.updateOne({ id: walletId }, { $set: { policyId } });
      },
      async countByPolicy(policyId) {
        return wallets.countDocuments({ policyId });
      },
      async countWithoutPolicy(accountId) {
        // `policyId: null` matches an absent field too (wallets created before policies existed).
        return wallets.countDocuments({ accountId, policyId: null });
      },
      async listByAccount(accountId, limit) {
        if (limit <= 0) return [];
        const docs = await wallets.find({ accountId }, noId).sort({ createdAt: -1, id: -1 }).limit(limit).toArray();
        return docs.map((d) => clean(d) as Wallet);
      },
    },
    walletKeys: {
      async insert(r) {
        await guardDuplicate('walletKeys', walletKeys.insertOne({ ...r }));
      },
      async get(walletId) {
        return clean(await walletKeys.findOne({ walletId }, noId));
      },
      async delete(walletId) {
        await walletKeys.deleteOne({ walletId });
      },
      async list(after, limit) {
        const docs = await walletKeys
          .find(after === undefined ? {} : { walletId: { $gt: after } }, noId)
          .sort({ walletId: 1 })
          .limit(limit)
          .toArray();
        return docs.map((d) => clean(d) as WalletKeyRecord);
      },
      async replace(r) {
        await walletKeys.replaceOne({ walletId: r.walletId }, { ...r });
      },
    },
    usage: {
      async increment(key, by, expiresAt) {
        // Classic operators only (no pipeline update, which MongoDB-compatible services lack), one round
        // trip in the common case. A counter past its expiry restarts even before the TTL monitor removes it.
        for (let attempt = 0; ; attempt++) {
          const now = clock.now();
          const live = await usage.findOneAndUpdate({ _id: key, expiresAt: { $gt: now } }, { $inc: { value: by } }, { returnDocument: 'after' });
          if (live) return live.value;
          const restarted = await usage.findOneAndUpdate(
            { _id: key, expiresAt: { $lte: now } },
            { $set: { value: by, expiresAt } },
            { returnDocument: 'after' },
          );
          if (restarted) return restarted.value;
          try {
            await usage.insertOne({ _id: key, value: by, expiresAt });
            return by;
          } catch (e) {
            // Another request created it first: count on it.
            if (!isDuplicateKey(e) || attempt >= 2) throw e;
          }
        }
      },
      async incrementIfAtMost(key, by, max, expiresAt) {
        // Classic operators only, one round trip in the common case: a live counter with room takes the increment.
        const bump = () =>
          usage.findOneAndUpdate(
            { _id: key, expiresAt: { $gt: clock.now() }, value: { $lte: max - by } },
            { $inc: { value: by } },
            { returnDocument: 'after' },
          );
        const hit = await bump();
        if (hit) return hit.value;
        if (by > max) return null;
        // No live counter: restart an expired one, or create it; a racing creator makes us try the bump once more.
        const restarted = await usage.updateOne({ _id: key, expiresAt: { $lte: clock.now() } }, { $set: { value: by, expiresAt } });
        if (restarted.modifiedCount === 1) return by;
        try {
          await usage.insertOne({ _id: key, value: by, expiresAt });
          return by;
        } catch (e) {
          if (!(e instanceof MongoServerError && e.code === 11000)) throw e;
          return (await bump())?.value ?? null;
        }
      },
      async get(key) {
        const doc = await usage.findOne({ _id: key, expiresAt: { $gt: clock.now() } });
        return doc?.value ?? 0;
      },
      async getMany(keys) {
        if (keys.length === 0) return [];
        const docs = await usage.find({ _id: { $in: [...keys] }, expiresAt: { $gt: clock.now() } }).toArray();
        const byKey = new Map(docs.map((d) => [d._id, d.value]));
        return keys.map((k) => byKey.get(k) ?? 0);
      },
    },
    idempotency: {
      async insertIfAbsent(r) {
        const { scope, key } = r;
        // An expired record is gone logically even before the TTL monitor removes it, as in the memory adapter.
        await idem.deleteOne({ scope, key, expiresAtDate: { $lte: clock.now() } });
        // Bounded retry: the holder of the key may free it (failed attempt) between our insert and our read.
        for (let attempt = 0; attempt < 3; attempt++) {
          try {
            await idem.insertOne({ ...r, expiresAtDate: new Date(r.expiresAt) });
            return null;
          } catch (e) {
            if (!isDuplicateKey(e)) throw e;
          }
          const cur = toIdempotencyRecord(await idem.findOne({ scope, key }));
          if (cur) return cur;
        }
        throw new DuplicateError('idempotency.scope_key');
      },
      async takeOver(scope, key, expectedOwner, owner, lockedUntil) {
        // Records written before owners existed have none.
        const r = await idem.updateOne({ scope, key, status: 0, owner: expectedOwner ?? { $exists: false } }, { $set: { owner, lockedUntil } });
        return r.modifiedCount === 1;
      },
      async complete(scope, key, owner, status, body) {
        const r = await idem.updateOne({ scope, key, owner }, { $set: { status, body } });
        return r.matchedCount === 1;
      },
      async delete(scope, key, owner) {
        await idem.deleteOne({ scope, key, owner });
      },
    },
    intents: createMongoIntents(db),
    intentEvents: createMongoIntentEvents(db, clock),
    // On a replica set the cross-instance bus follows the intents' change stream; elsewhere it polls intentEvents.
    ...(capabilities.changeStreams ? { intentChanges: createMongoIntentChanges(db, { clock: base }) } : {}),
    intentLeases: createMongoIntentLeases(db),
    nonces: createMongoNonces(db),
    paymentLocks: createMongoPaymentLocks(db),
    paymentNonces: {
      async claim(key, record) {
        try {
          await paymentNonces.insertOne({ _id: key, ...record });
          return true;
        } catch (e) {
          if (isDuplicateKey(e)) return false;
          throw e;
        }
      },
      async isClaimed(key) {
        return (await paymentNonces.countDocuments({ _id: key }, { limit: 1 })) > 0;
      },
    },
    users: createMongoUsers(db),
    sessions: createMongoSessions(db, clock),
    auditLog: createMongoAuditLog(db, clock),
    policies: createMongoPolicies(db),
    webhooks: createMongoWebhooks(db),
    rateHistory: createMongoRateHistory(db, clock),
    positionLedger: createMongoPositionLedger(db),
    standingIntents: createMongoStandingIntents(db),
    standingDecisions: createMongoStandingDecisions(db, clock),
    claimEnvironment: (environment) => claimEnvironment(db, environment, clock),
    async ping() {
      await db.command({ ping: 1 });
    },
    async close() {
      serverClock?.stop();
      await client.close();
    },
  };
}
