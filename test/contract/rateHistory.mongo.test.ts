import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeRateHistoryContract } from './rateHistory.contract';
import { describeOnMongo } from './mongoHarness';
import { ensureIndexes } from '../../src/store/mongo/indexes';
import { RATE_HISTORY_RETENTION_DAYS } from '../../src/domain/rateHistory';

describeOnMongo('rate history contract', describeRateHistoryContract);

const uri = process.env.MONGODB_URI;
(uri ? test : test.skip)(
  'behavior: the rateHistory collection has a 30-day TTL index on atDate and a unique index on {chain, protocol, asset, at}',
  async () => {
    const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
    const db = client.db(`rate_indexes_${randomBytes(4).toString('hex')}`);
    try {
      await client.connect();
      await ensureIndexes(db, { ttlIndexes: true });
      const indexes = await db.collection('rateHistory').listIndexes().toArray();
      const ttl = indexes.find((i) => JSON.stringify(i.key) === JSON.stringify({ atDate: 1 }));
      expect(ttl?.expireAfterSeconds).toBe(RATE_HISTORY_RETENTION_DAYS * 86_400);
      const key = indexes.find((i) => JSON.stringify(i.key) === JSON.stringify({ chain: 1, protocol: 1, asset: 1, at: 1 }));
      expect(key?.unique).toBe(true);
    } finally {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    }
  },
);
