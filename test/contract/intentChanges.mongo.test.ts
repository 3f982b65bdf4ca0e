import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore } from '../../src/store/mongo/mongoStore';
import { createMongoIntentChanges } from '../../src/store/mongo/mongoIntentChanges';
import { describeIntentChangesContract } from './intentChanges.contract';

const SUITE = 'MongoDB intent change feed';

function skip(reason: string): void {
  console.log(`skipped: ${SUITE} (${reason})`);
  describe(`intent change feed contract: mongo`, () => {
    it.skip(reason, () => undefined);
  });
}

/**
 * Whether the server opens change streams, asked before any test is
 * registered (jest registers synchronously, the store probes asynchronously):
 * a child process runs the store's probe (watch, one read). 0: yes; 3: the
 * watch failed; anything else (no server) lets the suite run and fail loudly.
 */
function changeStreams(uri: string): 'yes' | 'no' | 'unknown' {
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
