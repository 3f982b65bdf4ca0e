import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describePositionLedgerContract } from './positionLedger.contract';
import { describeOnMongo } from './mongoHarness';
import { ensureIndexes } from '../../src/store/mongo/indexes';

describeOnMongo('position ledger contract', describePositionLedgerContract);

const uri = process.env.MONGODB_URI;
(uri ? test : test.skip)('behavior: the positionLedger collection is unique on {intentId, stepIndex}', async () => {
  const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`ledger_indexes_${randomBytes(4).toString('hex')}`);
  try {
    await client.connect();
    await ensureIndexes(db, { ttlIndexes: true });
    const indexes = await db.collection('positionLedger').listIndexes().toArray();
    expect(indexes.find((i) => JSON.stringify(i.key) === JSON.stringify({ intentId: 1, stepIndex: 1 }))?.unique).toBe(true);
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
});
