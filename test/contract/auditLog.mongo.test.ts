import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeAuditLogContract } from './auditLog.contract';
import { describeOnMongo } from './mongoHarness';
import { ensureIndexes } from '../../src/store/mongo/indexes';
import { AUDIT_RETENTION_DAYS } from '../../src/domain/audit';

describeOnMongo('audit log contract', describeAuditLogContract);

const uri = process.env.MONGODB_URI;
(uri ? test : test.skip)('behavior: the auditLog collection has a 90-day TTL index on atDate and the account listing index', async () => {
  const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`audit_indexes_${randomBytes(4).toString('hex')}`);
  try {
    await client.connect();
    await ensureIndexes(db, { ttlIndexes: true });
    const indexes = await db.collection('auditLog').listIndexes().toArray();
    const ttl = indexes.find((i) => JSON.stringify(i.key) === JSON.stringify({ atDate: 1 }));
    expect(ttl?.expireAfterSeconds).toBe(AUDIT_RETENTION_DAYS * 86_400);
    expect(indexes.some((i) => JSON.stringify(i.key) === JSON.stringify({ accountId: 1, at: -1, id: -1 }))).toBe(true);
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  }
});
