import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { describeRateHistoryContract } from './rateHistory.contract';
import { describeOnMongo } from './mongoHarness';
import { ensureIndexes } from '../../src/store/mongo/indexes';
import { createMongoRateHistory } from '../../src/store/mongo/mongoRateHistory';
import { RATE_HISTORY_RETENTION_DAYS } from '../../src/domain/rateHistory';

describeOnMongo('rate history contract', describeRateHistoryContract);

const uri = process.env.MONGODB_URI;

/** Runs `fn` on a fresh database, dropped afterwards. */
async function onFreshDb(prefix: string, fn: (db: Db) => Promise<void>): Promise<void> {
  const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`${prefix}_${randomBytes(4).toString('hex')}`);
  try {
    await client.connect();
    await fn(db);
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
}

const keyOf = (i: { key: unknown }) => JSON.stringify(i.key);

/** Whether the server drops an index (some MongoDB-compatible test servers lack dropIndexes). */
async function canDropIndexes(db: Db): Promise<boolean> {
  const probe = db.collection('dropIndexProbe');
  await probe.createIndex({ k: 1 });
  return probe.dropIndex('k_1').then(
    () => true,
    () => false,
  );
}

(uri ? test : test.skip)(
  'behavior: rateHistory and rateCosts have a 90-day TTL index on atDate; rateHistory is unique on {chain, protocol, asset, token, at}, rateCosts on {at}',
  async () => {
    await onFreshDb('rate_indexes', async (db) => {
      await ensureIndexes(db, { ttlIndexes: true });
      for (const [collection, unique] of [
        ['rateHistory', { chain: 1, protocol: 1, asset: 1, token: 1, at: 1 }],
        ['rateCosts', { at: 1 }],
      ] as const) {
        const indexes = await db.collection(collection).listIndexes().toArray();
        expect(indexes.find((i) => keyOf(i) === JSON.stringify({ atDate: 1 }))?.expireAfterSeconds).toBe(RATE_HISTORY_RETENTION_DAYS * 86_400);
        expect(indexes.find((i) => keyOf(i) === JSON.stringify(unique))?.unique).toBe(true);
      }
    });
  },
);

(uri ? test : test.skip)(
  'behavior: a database indexed by an earlier version (unique key without the token, 30-day TTL) gets the token key and the 90-day TTL, and keeps its samples',
  async () => {
    await onFreshDb('rate_upgrade', async (db) => {
      const samples = db.collection('rateHistory');
      await samples.createIndex({ chain: 1, protocol: 1, asset: 1, at: 1 }, { unique: true });
      await samples.createIndex({ atDate: 1 }, { expireAfterSeconds: 30 * 86_400 });
      const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 86_400_000).toISOString();
      await samples.insertOne({ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', at, atDate: new Date(at), apy: 4 });
      await ensureIndexes(db, { ttlIndexes: true });
      await ensureIndexes(db, { ttlIndexes: true }); // idempotent
      const history = createMongoRateHistory(db);
      if (!(await canDropIndexes(db))) {
        // a server that cannot drop an index keeps the earlier ones: the start still succeeds and the samples stay readable
        expect((await history.list({ from: at, to: new Date(Date.parse(at) + 60_000).toISOString() })).map((s) => s.apy)).toEqual([4]);
        return;
      }
      const indexes = await samples.listIndexes().toArray();
      expect(indexes.find((i) => keyOf(i) === JSON.stringify({ chain: 1, protocol: 1, asset: 1, at: 1 }))).toBeUndefined();
      expect(indexes.find((i) => keyOf(i) === JSON.stringify({ atDate: 1 }))?.expireAfterSeconds).toBe(RATE_HISTORY_RETENTION_DAYS * 86_400);
      // the old sample (no token) and a tokened one of the same market and minute live side by side
      await history.record([{ chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', at, apy: 5 }]);
      const listed = await history.list({ from: at, to: new Date(Date.parse(at) + 60_000).toISOString() });
      expect(listed.map((s) => [s.token, s.apy])).toEqual([
        [undefined, 4],
        ['0x036CbD53842c5426634e7929541eC2318f3dCF7e', 5],
      ]);
    });
  },
);
