import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore } from '../../src/store/mongo/mongoStore';
import type { Store } from '../../src/ports/store';

/** Every collection the adapter writes. */
const STORE_COLLECTIONS = [
  'accounts',
  'apiKeys',
  'wallets',
  'walletKeys',
  'usage',
  'idempotency',
  'intents',
  'intentEvents',
  'intentLeases',
  'nonces',
  'counters',
  'paymentNonces',
  'paymentLocks',
  'users',
  'sessions',
  'serviceMeta',
  'policies',
  'policyClaims',
  'auditLog',
  'webhookEndpoints',
  'webhookDeliveries',
  'rateHistory',
  'positionLedger',
  'rateCosts',
  'standingIntents',
  'standingDecisions',
];

/**
 * Runs a contract suite against MongoDB when MONGODB_URI is set, on a fresh
 * database dropped afterwards; otherwise prints one skip line.
 */
export function describeOnMongo(suite: string, run: (name: string, makeStore: () => Promise<Store>) => void): void {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    console.log(`skipped: MongoDB ${suite} (set MONGODB_URI to run it)`);
    describe(`${suite}: mongo`, () => {
      it.skip('runs only with MONGODB_URI set', () => undefined);
    });
    return;
  }
  // A fresh database per run, dropped afterwards, so runs never see each other's records.
  const dbName = `contract_${Date.now()}_${randomBytes(4).toString('hex')}`;
  run(`mongo (${dbName})`, () => createMongoStore(uri, dbName));
  // Top-level afterAll runs after the contract's own afterAll has closed its store.
  afterAll(async () => {
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.connect();
      const db = client.db(dbName);
      // Some MongoDB-compatible servers lack dropDatabase (and listCollections): then the adapter's collections are emptied.
      await db.dropDatabase().catch(async () => {
        for (const name of STORE_COLLECTIONS)
          await db
            .collection(name)
            .deleteMany({})
            .catch(() => undefined);
      });
    } finally {
      await client.close();
    }
  });
}

/**
 * Whether the server opens change streams, asked before any test is
 * registered (jest registers synchronously, the store probes asynchronously):
 * a child process runs the store's probe (watch, one read). 0: yes; 3: the
 * watch failed; anything else (no server) lets the suite run and fail loudly.
 */
export function changeStreams(uri: string): 'yes' | 'no' | 'unknown' {
  const script = `
    const { MongoClient } = require(${JSON.stringify(require.resolve('mongodb'))});
    const client = new MongoClient(process.env.PROBE_URI, { serverSelectionTimeoutMS: 10000 });
    client.connect().then(async () => {
      const stream = client.db('changeStreamProbe').collection('probe').watch([], { maxAwaitTimeMS: 50 });
      const ok = await stream.tryNext().then(() => true, () => false);
      await stream.close().catch(() => undefined);
      return ok ? 0 : 3;
    }, () => 2).then(async (code) => { await client.close().catch(() => undefined); process.exit(code); });`;
  const r = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, PROBE_URI: uri }, timeout: 30_000, stdio: 'ignore' });
  return r.status === 0 ? 'yes' : r.status === 3 ? 'no' : 'unknown';
}
