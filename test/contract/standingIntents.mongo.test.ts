import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeStandingIntentsContract } from './standingIntents.contract';
import { describeOnMongo } from './mongoHarness';
import { ensureIndexes } from '../../src/store/mongo/indexes';
import { DECISION_RETENTION_DAYS } from '../../src/domain/standingIntent';

describeOnMongo('standing intents contract', describeStandingIntentsContract);

const uri = process.env.MONGODB_URI;
(uri ? test : test.skip)(
  'behavior: the standing intent collections have their indexes: unique ids, one per wallet and asset, one decision per sample minute, 90-day TTL',
  async () => {
    const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
    const db = client.db(`standing_indexes_${randomBytes(4).toString('hex')}`);
    try {
      await client.connect();
      await ensureIndexes(db, { ttlIndexes: true });
      const keys = async (c: string) =>
        (await db.collection(c).listIndexes().toArray()).map((i) => ({ key: JSON.stringify(i.key), unique: i.unique === true, ttl: i.expireAfterSeconds }));
      expect(await keys('standingIntents')).toEqual(
        expect.arrayContaining([
          { key: '{"id":1}', unique: true, ttl: undefined },
          { key: '{"walletId":1,"asset":1}', unique: true, ttl: undefined },
          { key: '{"accountId":1,"createdAt":-1}', unique: false, ttl: undefined },
        ]),
      );
      expect(await keys('standingDecisions')).toEqual(
        expect.arrayContaining([
          { key: '{"id":1}', unique: true, ttl: undefined },
          { key: '{"standingIntentId":1,"sampleAt":1}', unique: true, ttl: undefined },
          { key: '{"decidedAtDate":1}', unique: false, ttl: DECISION_RETENTION_DAYS * 86_400 },
        ]),
      );
    } finally {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    }
  },
);
