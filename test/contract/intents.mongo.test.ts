import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore } from '../../src/store/mongo/mongoStore';
import { describeIntentRepoContract } from './intents.contract';

const uri = process.env.MONGODB_URI;

if (uri) {
  // A fresh database per run, dropped afterwards, so runs never see each other's records.
  const dbName = `contract_intents_${Date.now()}_${randomBytes(4).toString('hex')}`;

  describeIntentRepoContract(`mongo (${dbName})`, () => createMongoStore(uri, dbName));

  afterAll(async () => {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.connect();
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });
} else {
  console.log('skipped: MongoDB intent repo contract (set MONGODB_URI to run it)');
  describe('intent repo contract: mongo', () => {
    it.skip('runs only with MONGODB_URI set', () => undefined);
  });
}
