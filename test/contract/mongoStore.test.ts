import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore } from '../../src/store/mongo/mongoStore';
import { describeStoreContract } from './repositories.contract';

const uri = process.env.MONGODB_URI;

if (uri) {
  // A fresh database per run, dropped afterwards, so runs never see each other's records.
  const dbName = `contract_${Date.now()}_${randomBytes(4).toString('hex')}`;

  describeStoreContract(`mongo (${dbName})`, () => createMongoStore(uri, dbName));

  // Top-level afterAll runs after the contract's own afterAll has closed its store.
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
  console.log('skipped: MongoDB contract suite (set MONGODB_URI to run it)');
  describe('store contract: mongo', () => {
    it.skip('runs only with MONGODB_URI set', () => undefined);
  });
}
