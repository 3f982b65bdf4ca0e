import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { startTestServer, type TestServer } from '../helpers/server';
import { dashboardGql, signIn } from '../helpers/dashboard';
import { claimEnvironment, EnvironmentMismatchError } from '../../src/store/mongo/mongoSignIn';
import { TEST_CHAINS } from '../../src/domain/chains';

/**
 * docs/decisions.md, "staging": a staging deployment says so (/healthz, /readyz, the
 * dashboard), serves test networks only whatever the plan, and needs a
 * database of its own.
 */
/** Every collection the Mongo adapter writes (a refused start has made its indexes already). */
const SERVICE_COLLECTIONS = [
  'accounts',
  'apiKeys',
  'counters',
  'idempotency',
  'intentEvents',
  'intents',
  'paymentNonces',
  'serviceMeta',
  'sessions',
  'usage',
  'users',
  'walletKeys',
  'wallets',
];

let staging: TestServer;
let dev: TestServer;

beforeAll(async () => {
  const shared = { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! };
  // The development sign-in is off outside development unless turned on: this staging sandbox turns it on to sign in at all.
  [staging, dev] = await Promise.all([startTestServer({ ...shared, SERVICE_ENV: 'staging', DEV_SIGNIN: 'true' }), startTestServer(shared)]);
});
afterAll(async () => {
  await Promise.all([staging?.stop(), dev?.stop()]);
});

describe('a staging deployment', () => {
  test('behavior: /healthz names the environment; /readyz checks include it', async () => {
    const health = await staging.rest('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', environment: 'staging' });
    const ready = await staging.rest('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ environment: 'staging', store: 'ok', chains: 'ok' });
    // and a development one says development
    expect((await dev.rest('GET', '/healthz')).body.environment).toBe('development');
    expect((await dev.rest('GET', '/readyz')).body.checks.environment).toBe('development');
  });

  test('error: a pro account naming a main network is 403 PLAN_RESTRICTED naming staging (development: 400 INVALID_CHAIN, upcoming)', async () => {
    const [s, d] = await Promise.all([staging.admin.createAccount({ plan: 'pro' }), dev.admin.createAccount({ plan: 'pro' })]);
    const onStaging = await staging.rest('GET', '/v1/yields?chain=ethereum', { key: s.key });
    expect(onStaging.status).toBe(403);
    expect(onStaging.body.error).toBe('PLAN_RESTRICTED');
    expect(onStaging.body.message).toMatch(/staging/);
    expect(onStaging.body.details).toMatchObject({ chain: 'ethereum', environment: 'staging', plan: 'pro' });

    const onDev = await dev.rest('GET', '/v1/yields?chain=ethereum', { key: d.key });
    expect(onDev.status).toBe(400);
    expect(onDev.body.error).toBe('INVALID_CHAIN');
    expect(onDev.body.details).toMatchObject({ status: 'upcoming' });

    // the same refusal over GraphQL
    const gql = await staging.gql('{ yields(chain: ETHEREUM) { rates { chain } } }', {}, s.key);
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('PLAN_RESTRICTED');
    expect(gql.body.errors?.[0]?.message).toMatch(/staging/);
    // test networks are served
    const testnet = await staging.rest('GET', '/v1/yields?chain=base-sepolia', { key: s.key });
    expect(testnet.status).toBe(200);
  });

  test('behavior: the dashboard viewer says staging after sign-in (development on a development server)', async () => {
    const jar = await signIn(staging.url, `staging-${randomBytes(4).toString('hex')}@example.com`);
    const viewer = await dashboardGql(staging.url, jar, '{ viewer { email environment account { plan } } }');
    expect(viewer.body.errors).toBeUndefined();
    expect(viewer.body.data.viewer).toMatchObject({ environment: 'STAGING', account: { plan: 'FREE' } });
    const devJar = await signIn(dev.url, `dev-${randomBytes(4).toString('hex')}@example.com`);
    expect((await dashboardGql(dev.url, devJar, '{ viewer { environment } }')).body.data.viewer.environment).toBe('DEVELOPMENT');
  });

  test("behavior: a pro account's new wallet in staging has exactly the three test chains (development: all six)", async () => {
    const [s, d] = await Promise.all([staging.admin.createAccount({ plan: 'pro' }), dev.admin.createAccount({ plan: 'pro' })]);
    const onDev = await dev.rest('POST', '/v1/wallets', { key: d.key, body: { userId: 'pro-user' } });
    expect(onDev.status).toBe(201);
    expect(onDev.body.chains).toHaveLength(6);
    const onStaging = await staging.rest('POST', '/v1/wallets', { key: s.key, body: { userId: 'pro-user' } });
    expect(onStaging.status).toBe(201);
    expect([...onStaging.body.chains].sort()).toEqual([...TEST_CHAINS].sort());
    expect(onStaging.body.chains).toHaveLength(3);
  });
});

describe('the database belongs to one environment', () => {
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    console.log('skipped: staging database claim (set MONGODB_URI to run it)');
    test.skip('runs only with MONGODB_URI set', () => undefined);
    return;
  }
  const dbNames = [`staging_${Date.now()}_${randomBytes(4).toString('hex')}`, `staging_${Date.now()}_${randomBytes(4).toString('hex')}`];
  let client: MongoClient;
  beforeAll(async () => {
    client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
  });
  afterAll(async () => {
    if (!client) return;
    try {
      for (const name of dbNames) {
        const db = client.db(name);
        // Some MongoDB-compatible servers (the jest lane's) lack dropDatabase: then every collection the service writes is emptied.
        await db.dropDatabase().catch(async () => {
          for (const c of SERVICE_COLLECTIONS)
            await db
              .collection(c)
              .deleteMany({})
              .catch(() => undefined);
        });
      }
    } finally {
      await client.close();
    }
  });

  test('error: a database claimed by production refuses staging, naming both; the same environment again is fine', async () => {
    const db = client.db(dbNames[0]);
    await expect(claimEnvironment(db, 'production')).resolves.toBeUndefined();
    await expect(claimEnvironment(db, 'production')).resolves.toBeUndefined();
    const refused = await claimEnvironment(db, 'staging').then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(EnvironmentMismatchError);
    const message = (refused as Error).message;
    expect(message).toContain('production');
    expect(message).toContain('staging');
    expect(message).toContain(dbNames[0]);
    // the claim is unchanged by the refused one
    expect(await db.collection('serviceMeta').findOne({ _id: 'environment' as never })).toMatchObject({ environment: 'production' });
    await expect(claimEnvironment(db, 'production')).resolves.toBeUndefined();
  });

  test('behavior: concurrent claims of a fresh database by one environment all succeed; another database is independent', async () => {
    const db = client.db(dbNames[1]);
    await expect(Promise.all([claimEnvironment(db, 'staging'), claimEnvironment(db, 'staging'), claimEnvironment(db, 'staging')])).resolves.toHaveLength(3);
    await expect(claimEnvironment(db, 'production')).rejects.toBeInstanceOf(EnvironmentMismatchError);
  });

  test('error: a staging service does not start on a production database', async () => {
    const [base, query] = uri.split('?') as [string, string | undefined];
    const slash = base.indexOf('/', 'mongodb://'.length);
    const onDb = `${slash < 0 ? base : base.slice(0, slash)}/${dbNames[0]}${query ? `?${query}` : ''}`;
    const env = {
      SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!,
      MONGODB_URI: onDb,
      KEY_VAULT_MASTER_KEY: randomBytes(32).toString('hex'),
      SESSION_SECRET: randomBytes(32).toString('hex'),
    };
    await expect(startTestServer({ ...env, SERVICE_ENV: 'staging' })).rejects.toBeInstanceOf(EnvironmentMismatchError);
  });
});
