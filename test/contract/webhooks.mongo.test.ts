import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeWebhooksContract } from './webhooks.contract';
import { describeOnMongo } from './mongoHarness';
import { ensureIndexes } from '../../src/store/mongo/indexes';

describeOnMongo('webhooks contract', describeWebhooksContract);

const uri = process.env.MONGODB_URI;
(uri ? test : test.skip)(
  'behavior: the webhook collections have their indexes: unique ids, endpoints by account, due deliveries, the log, 30-day TTL',
  async () => {
    const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
    const db = client.db(`webhook_indexes_${randomBytes(4).toString('hex')}`);
    try {
      await client.connect();
      await ensureIndexes(db, { ttlIndexes: true });
      const keys = async (c: string) =>
        (await db.collection(c).listIndexes().toArray()).map((i) => ({ key: JSON.stringify(i.key), unique: i.unique === true, ttl: i.expireAfterSeconds }));
      const endpoints = await keys('webhookEndpoints');
      expect(endpoints).toEqual(
        expect.arrayContaining([
          { key: '{"id":1}', unique: true, ttl: undefined },
          { key: '{"accountId":1,"createdAt":-1}', unique: false, ttl: undefined },
        ]),
      );
      const deliveries = await keys('webhookDeliveries');
      expect(deliveries).toEqual(
        expect.arrayContaining([
          { key: '{"id":1}', unique: true, ttl: undefined },
          { key: '{"status":1,"nextAttemptAt":1}', unique: false, ttl: undefined },
          { key: '{"endpointId":1,"createdAt":-1,"id":-1}', unique: false, ttl: undefined },
          { key: '{"expireAt":1}', unique: false, ttl: 0 },
        ]),
      );
    } finally {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    }
  },
);
