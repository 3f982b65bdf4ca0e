import { randomBytes } from 'node:crypto';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { fitInRateWindow, startTestServer, type HttpAnswer, type TestServer } from '../helpers/server';
import { missingRaceIsolation } from '../contract/raceProbe';

/**
 * Scale-out: rate windows and credits stay exact across instances. Three
 * instances of the service on one MongoDB database (the test lane's server,
 * or MONGODB_URI), one account, requests spread round-robin over them: the
 * counters are conditional updates in the database, so the instances agree
 * to the unit, as one instance does. Requests one after another must be
 * exact on every server; requests all in flight at once are exact where the
 * server isolates concurrent findAndModify (elsewhere the capability line is
 * printed and the weaker invariants asserted). The database round trips of
 * each request are counted with the driver's command monitoring.
 */

const uri = process.env.MONGODB_URI;
const INSTANCES = 3;
/** The collections a request's admission touches: key, account, rate window and credits. */
const ADMISSION = new Set(['apiKeys', 'accounts', 'usage']);

/** `base` with its database path set to `db` and `extra` added to its query. */
function withDatabase(base: string, db: string, extra: string): string {
  const [head, query] = base.split('?') as [string, string | undefined];
  const hosts = head.replace(/^mongodb(\+srv)?:\/\//, '').split('/')[0];
  const scheme = head.startsWith('mongodb+srv') ? 'mongodb+srv' : 'mongodb';
  return `${scheme}://${hosts}/${db}?${query ? `${query}&` : ''}${extra}`;
}

if (!uri) {
  console.log('skipped: rate windows and credits across instances (set MONGODB_URI, or let the test lane start its server)');
  test.skip('runs only with MONGODB_URI', () => undefined);
} else {
  const dbName = `scaleout_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const instances: TestServer[] = [];
  const commands: CommandStartedEvent[] = [];
  let connect: jest.SpyInstance;
  /** Null when the server isolates concurrent guarded updates; else the capability line to print. */
  let missing: string | null = null;

  beforeAll(async () => {
    // Every client the instances open reports its commands: each command started is one round trip.
    const original = MongoClient.prototype.connect;
    connect = jest.spyOn(MongoClient.prototype, 'connect').mockImplementation(function (this: MongoClient) {
      this.on('commandStarted', (e) => commands.push(e));
      return original.call(this);
    });
    const env = { MONGODB_URI: withDatabase(uri, dbName, 'monitorCommands=true'), KEY_VAULT_MASTER_KEY: randomBytes(32).toString('hex') };
    for (let i = 0; i < INSTANCES; i++) instances.push(await startTestServer(env));
    missing = await missingRaceIsolation(instances[0]!.service.deps.store, 'the counts of requests in flight at once are not asserted exactly');
  }, 120_000);

  afterAll(async () => {
    connect?.mockRestore();
    await Promise.all(instances.map((s) => s.stop()));
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    try {
      await client.connect();
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
    } finally {
      await client.close();
    }
  });

  const read = (i: number, key: string) => instances[i % INSTANCES]!.rest('GET', '/v1/yields', { key });
  const header = (a: HttpAnswer, name: string) => Number(a.headers.get(name));
  const statuses = (answers: HttpAnswer[]) => answers.map((a) => (a.status === 200 ? '200' : `${a.status} ${a.body.error}`));
  const countOf = (answers: HttpAnswer[], status: string) => statuses(answers).filter((s) => s === status).length;

  /** Sends one request and returns it with the admission's round trips it caused (`command collection`). */
  async function measured(i: number, key: string): Promise<{ answer: HttpAnswer; trips: string[] }> {
    const from = commands.length;
    const answer = await read(i, key);
    const trips = commands
      .slice(from)
      .map((e) => ({ name: e.commandName, coll: String((e.command as Record<string, unknown>)[e.commandName]) }))
      .filter((c) => ADMISSION.has(c.coll))
      // the key-use recorder's batched lastUsedAt write runs on its own timer, whichever request it lands beside: not admission
      .filter((c) => !(c.name === 'update' && c.coll === 'apiKeys'))
      .map((c) => `${c.name} ${c.coll}`);
    return { answer, trips };
  }

  test('behavior: one after another across three instances, a limit of 10/min admits exactly 10 and the 11th is RATE_LIMIT_EXCEEDED; each success charged once', async () => {
    const a = instances[0]!;
    const limit = 10;
    const { key, accountId } = await a.admin.createAccount({ plan: 'pro', requestsPerMinute: limit });
    await fitInRateWindow(15_000);
    const sent = [];
    for (let i = 0; i <= limit; i++) sent.push(await measured(i, key));
    const answers = sent.map((s) => s.answer);
    expect(statuses(answers)).toEqual([...Array.from({ length: limit }, () => '200'), '429 RATE_LIMIT_EXCEEDED']);
    // Each instance sees the window as the others left it: remaining counts down by one per request, whichever instance answers.
    expect(answers.map((r) => header(r, 'x-ratelimit-remaining'))).toEqual([...Array.from({ length: limit }, (_, i) => limit - 1 - i), 0]);
    // and so do the credits (pro: 10,000 a month); the refused request costs none
    expect(answers.map((r) => header(r, 'x-credits-remaining'))).toEqual([...Array.from({ length: limit }, (_, i) => 10_000 - 1 - i), 10_000 - limit]);
    const usage = await a.admin.usage(accountId);
    expect(usage.credits.used).toBe(limit);
    expect(usage).toMatchObject({ rateWindow: { remaining: 0 } });

    const trips = sent.map((s) => s.trips);
    console.log(
      `database round trips of each request's admission (instance 1, 2, 3, 1, …): ${trips.map((t) => t.length).join(', ')}\n  first: ${trips[0]!.join(', ')}\n  warm: ${trips[INSTANCES]!.join(', ')}\n  refused: ${trips.at(-1)!.join(', ')}`,
    );
    // Once an instance holds the key (cached) and the counters exist: the rate window and the credits, one update each.
    for (const t of trips.slice(INSTANCES, limit)) expect(t).toEqual(['findAndModify usage', 'findAndModify usage']);
    // A refused request counts itself in the window, then only reads the credits for its X-Credits-Remaining.
    expect(trips.at(-1)).toEqual(['findAndModify usage', 'find usage']);
  });

  test('error: one after another across three instances, a free account (100 credits) gets exactly 100 reads and the 101st is CREDITS_EXHAUSTED', async () => {
    const a = instances[0]!;
    const { key, accountId } = await a.admin.createAccount({ plan: 'free', requestsPerMinute: 1_000 });
    const answers: HttpAnswer[] = [];
    for (let i = 0; i <= 100; i++) answers.push(await read(i, key));
    expect(statuses(answers)).toEqual([...Array.from({ length: 100 }, () => '200'), '403 CREDITS_EXHAUSTED']);
    expect(answers.map((r) => header(r, 'x-credits-remaining'))).toEqual([...Array.from({ length: 100 }, (_, i) => 99 - i), 0]);
    expect((await a.admin.usage(accountId)).credits.used).toBe(100);
  });

  test('behavior: 21 requests in flight at once across three instances on a limit of 20/min: exactly 20 admitted, one RATE_LIMIT_EXCEEDED, 20 credits', async () => {
    const a = instances[0]!;
    const limit = 20;
    const { key, accountId } = await a.admin.createAccount({ plan: 'pro', requestsPerMinute: limit });
    await fitInRateWindow(15_000);
    const answers = await Promise.all(Array.from({ length: limit + 1 }, (_, i) => read(i, key)));
    const admitted = countOf(answers, '200');
    const used = (await a.admin.usage(accountId)).credits.used;
    expect(countOf(answers, '200') + countOf(answers, '429 RATE_LIMIT_EXCEEDED')).toBe(limit + 1);
    if (missing) {
      console.log(
        `skipped: exact admission of requests in flight at once across instances (rate window): ${missing} (here: ${admitted} admitted, ${used} credits)`,
      );
      return;
    }
    expect(admitted).toBe(limit);
    expect(countOf(answers, '429 RATE_LIMIT_EXCEEDED')).toBe(1);
    expect(used).toBe(limit);
  });

  test('error: 110 reads in flight at once across three instances on a free account (100 credits): exactly 100 succeed, 10 CREDITS_EXHAUSTED, 100 used', async () => {
    const a = instances[0]!;
    const { key, accountId } = await a.admin.createAccount({ plan: 'free', requestsPerMinute: 1_000 });
    const answers = await Promise.all(Array.from({ length: 110 }, (_, i) => read(i, key)));
    const succeeded = countOf(answers, '200');
    const used = (await a.admin.usage(accountId)).credits.used;
    expect(succeeded + countOf(answers, '403 CREDITS_EXHAUSTED')).toBe(110);
    if (missing) {
      console.log(`skipped: exact credits of requests in flight at once across instances: ${missing} (here: ${succeeded} succeeded, ${used} used)`);
      return;
    }
    expect(succeeded).toBe(100);
    expect(used).toBe(100);
  });
}
