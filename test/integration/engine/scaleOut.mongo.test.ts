import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStore } from '../../../src/store/mongo/mongoStore';
import type { Store } from '../../../src/ports/store';
import { changeStreams } from '../../contract/mongoHarness';
import { describeScaleOut } from './scaleOut.suite';

/**
 * The scale-out suite on MongoDB: every engine has its own client on one
 * database, as instances would. It needs a replica set (the bus follows the
 * intents' change stream, and leases and nonces rely on isolated conditional
 * updates); anything else prints why it is skipped.
 */
const SUITE = 'scale-out on MongoDB';

function skip(reason: string): void {
  console.log(`skipped: ${SUITE} (${reason})`);
  describe(`several engines on one store and one set of devnets: mongo`, () => {
    it.skip(reason, () => undefined);
  });
}

const uri = process.env.MONGODB_URI;
if (!uri) skip('set MONGODB_URI to a replica set to run it');
else if (changeStreams(uri) === 'no') skip('the server at MONGODB_URI has no change streams; runs against a replica set');
else {
  const dbName = `scale_out_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const opened: Store[] = [];
  const open = async (): Promise<Store> => {
    const store = await createMongoStore(uri, dbName);
    opened.push(store);
    return store;
  };
  let shared: Promise<Store> | undefined;
  describeScaleOut(`mongo (${dbName})`, {
    shared: () => (shared ??= open()),
    instance: open,
    async close() {
      await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
      const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
      try {
        await client.connect();
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  });
}
