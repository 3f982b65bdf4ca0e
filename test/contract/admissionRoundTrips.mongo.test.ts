import { randomBytes } from 'node:crypto';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { createMongoStore } from '../../src/store/mongo/mongoStore';
import { createKeyCache } from '../../src/app/accounts/keyCache';
import { createAccount } from '../../src/app/accounts/createAccount';
import { admitRequest, authorizeOperation } from '../../src/app/accounts/admitRequest';
import { createLogger } from '../../src/logger';
import type { Store } from '../../src/ports/store';

/**
 * Database round trips of one request's admission on MongoDB (when
 * MONGODB_URI is set), counted with the driver's command monitoring: the key
 * check, the rate window and the credit reservation of `GET /v1/yields`
 * (admitRequest, then authorizeOperation as operation() runs it).
 */
const uri = process.env.MONGODB_URI;
const maybe = uri ? describe : describe.skip;
if (!uri) console.log('skipped: MongoDB admission round trips (set MONGODB_URI to run it)');

maybe('admission round trips on MongoDB', () => {
  const dbName = `roundtrips_${Date.now()}_${randomBytes(4).toString('hex')}`;
  let store: Store;
  const commands: CommandStartedEvent[] = [];
  let connect: jest.SpyInstance;

  beforeAll(async () => {
    // The store's own client, with command monitoring on: each command started is one round trip.
    const original = MongoClient.prototype.connect;
    connect = jest.spyOn(MongoClient.prototype, 'connect').mockImplementation(function (this: MongoClient) {
      this.on('commandStarted', (e) => commands.push(e));
      return original.call(this);
    });
    const sep = uri!.includes('?') ? '&' : '?';
    store = await createMongoStore(`${uri}${sep}monitorCommands=true`, dbName);
  });
  afterAll(async () => {
    connect?.mockRestore();
    if (!store) return;
    const client = new MongoClient(uri!, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.connect();
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
    } finally {
      await client.close();
      await store.close();
    }
  });

  /** The commands one admitted, charged request sends, as `name collection`. */
  async function oneRequest(deps: Parameters<typeof admitRequest>[0] & Parameters<typeof authorizeOperation>[0], authorization: string): Promise<string[]> {
    const from = commands.length;
    const { principal } = await admitRequest(deps, authorization);
    const charge = await authorizeOperation(deps, principal, 'getYields');
    expect(charge.usedAfter).not.toBeNull();
    return commands.slice(from).map((e) => `${e.commandName} ${String((e.command as Record<string, unknown>)[e.commandName])}`);
  }

  test('behavior: a request with a cached key makes 2 round trips (rate window, credits), none for the key or its account; the first one reads both', async () => {
    const deps = { store, clock: { now: () => new Date() }, keyCache: createKeyCache(), logger: createLogger('silent') };
    const { apiKey } = await createAccount(deps as never, { plan: 'pro' });
    const authorization = `Bearer ${apiKey.key}`;

    // The first request reads the key and its account, and creates the minute's and the month's counters
    // (each: the conditional update misses, then the expired-counter restart misses, then an insert).
    const first = await oneRequest(deps, authorization);
    expect(first).toEqual([
      'find apiKeys',
      'find accounts',
      'findAndModify usage',
      'findAndModify usage',
      'insert usage',
      'findAndModify usage',
      'update usage',
      'insert usage',
    ]);
    const warm = [];
    for (let i = 0; i < 5; i++) warm.push(await oneRequest(deps, authorization));
    for (const w of warm) expect(w).toEqual(['findAndModify usage', 'findAndModify usage']);
  });
});
