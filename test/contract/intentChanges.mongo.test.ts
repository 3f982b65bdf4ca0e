import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore } from '../../src/store/mongo/mongoStore';
import { createMongoIntentChanges } from '../../src/store/mongo/mongoIntentChanges';
import { describeIntentChangesContract } from './intentChanges.contract';
import { changeStreams } from './mongoHarness';

const SUITE = 'MongoDB intent change feed';

function skip(reason: string): void {
  console.log(`skipped: ${SUITE} (${reason})`);
  describe(`intent change feed contract: mongo`, () => {
    it.skip(reason, () => undefined);
  });
}

const uri = process.env.MONGODB_URI;
if (!uri) skip('set MONGODB_URI to run it');
else if (changeStreams(uri) === 'no') skip('the server has no change streams; runs against a replica set');
else {
  // A fresh database, dropped afterwards. The feed is the store's once it wires one; until then built on the same database.
  const dbName = `contract_${Date.now()}_${randomBytes(4).toString('hex')}`;
  describeIntentChangesContract(`mongo (${dbName})`, 'mongo', async () => {
    const store = await createMongoStore(uri, dbName);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 15_000 });
    await client.connect();
    const db = client.db(dbName);
    return {
      intents: store.intents,
      intentChanges: store.intentChanges ?? createMongoIntentChanges(db),
      async close() {
        await db.dropDatabase().catch(() => undefined);
        await client.close();
        await store.close();
      },
    };
  });
}
