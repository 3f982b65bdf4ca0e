import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../helpers/server';

/**
 * The product on MongoDB: the service as `npm start` composes it (startService
 * with MONGODB_URI and a master key), on the test lane's live server and the
 * shared devnets. The README walkthrough (wallet, demo funding, lend to
 * completed, balances, a GraphQL subscription), then a restart on the same
 * database: keys, wallets, usage and intents are still there, and an intent
 * interrupted mid-bridge by the restart finishes on the new process.
 */

const uri = process.env.MONGODB_URI;
const KEY_VAULT_MASTER_KEY = randomBytes(32).toString('hex');

/** `base` with its database path set to `db`, query options kept. */
function withDatabase(base: string, db: string): string {
  const [head, query] = base.split('?') as [string, string | undefined];
  const hosts = head.replace(/^mongodb(\+srv)?:\/\//, '').split('/')[0];
  const scheme = head.startsWith('mongodb+srv') ? 'mongodb+srv' : 'mongodb';
  return `${scheme}://${hosts}/${db}${query ? `?${query}` : ''}`;
}

if (!uri) {
  console.log('skipped: the product on MongoDB (set MONGODB_URI, or let the test lane start its server)');
  test.skip('runs only with MONGODB_URI', () => undefined);
} else {
  const dbName = `product_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const env = { MONGODB_URI: withDatabase(uri, dbName), KEY_VAULT_MASTER_KEY };
  let srv: TestServer | undefined;

  afterAll(async () => {
    await srv?.stop();
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

  /** Polls an intent until `done(intent)`, within `ms`. */
  async function pollUntil(s: TestServer, key: string, id: string, done: (i: Json) => boolean, ms = 30_000): Promise<Json> {
    const deadline = Date.now() + ms;
    for (;;) {
      const r = await s.rest('GET', `/v1/intents/${id}`, { key });
      expect(r.status).toBe(200);
      if (done(r.body)) return r.body;
      if (Date.now() > deadline) throw new Error(`intent ${id}: ${r.text}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  const usdcOn = (report: Json, chain: string): number =>
    Number(report.chains?.find((c: Json) => c.chain === chain)?.tokens.find((t: Json) => t.asset === 'USDC')?.balanceFormatted ?? 0);

  test('behavior: the walkthrough on MongoDB, then a restart on the same database: everything is still there and the interrupted bridge finishes', async () => {
    srv = await startTestServer(env);
    expect(srv.service.deps.store.kind).toBe('mongo');
    const ready = await srv.rest('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.storeCapabilities).toMatchObject({ uniqueIndexes: true, conditionalUpdates: true });
    const { key, accountId } = await srv.admin.createAccount({ plan: 'pro' });

    // wallet, demo funding, lend to completed
    const wallet = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'mongo-walkthrough' } });
    expect(wallet.status).toBe(201);
    const fund = await srv.rest('POST', '/v1/demo/fund', { key, body: { walletId: wallet.body.id } });
    expect(fund.status).toBe(202);
    for (let n = 0; n < 100; n++) {
      const b = await srv.rest('GET', `/v1/balances/${wallet.body.id}`, { key });
      if (usdcOn(b.body, 'arbitrum-sepolia') >= 1) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const lend = await srv.rest('POST', '/v1/intents', { key, body: { walletId: wallet.body.id, action: 'lend', amount: 1 } });
    expect(lend.status).toBe(201);

    // the subscription sees it to its end
    const ws = createClient({
      url: srv.url.replace('http', 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
    });
    const statuses: string[] = [];
    await new Promise<void>((resolve, reject) =>
      ws.subscribe(
        { query: 'subscription($id: ID!) { intentUpdated(id: $id) { status } }', variables: { id: lend.body.id } },
        { next: (r) => statuses.push((r.data as Json).intentUpdated.status), error: reject, complete: resolve },
      ),
    );
    await ws.dispose();
    expect(statuses.at(-1)).toBe('COMPLETED');
    const lent = await pollUntil(srv, key, lend.body.id, (i) => i.status === 'completed');
    expect(lent.results.completedSteps).toBe(lent.executionPlan.steps.length);

    const balances = await srv.rest('GET', `/v1/balances/${wallet.body.id}`, { key });
    expect(balances.status).toBe(200);
    expect(balances.body.chains.flatMap((c: Json) => c.positions)).toContainEqual(expect.objectContaining({ asset: 'USDC' }));

    // a bridge interrupted by the restart: its mint side keeps failing on this process, so it is still executing with the burn mined
    const second = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'mongo-interrupted' } });
    const mint = await srv.rest('POST', '/admin/sandbox/mint', {
      key: ADMIN_TOKEN,
      body: { chain: 'arbitrum-sepolia', asset: 'USDC', address: second.body.address, amount: '3' },
    });
    expect(mint.status).toBe(200);
    const fault = await srv.rest('POST', '/admin/sandbox/faults', {
      key: ADMIN_TOKEN,
      body: { chain: 'arbitrum-sepolia', kind: 'attestation-error', count: 100 },
    });
    expect(fault.status).toBe(201);
    const bridge = await srv.rest('POST', '/v1/intents', {
      key,
      body: { walletId: second.body.id, action: 'bridge', amount: 3, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' },
    });
    expect(bridge.status).toBe(201);
    const interrupted = await pollUntil(srv, key, bridge.body.id, (i) =>
      i.results?.transactions.some((t: Json) => t.kind === 'burn' && t.status === 'confirmed'),
    );
    expect(interrupted.status).toBe('executing');
    const usageBefore = await srv.admin.usage(accountId);
    await srv.stop();
    srv = undefined;

    // the same database, a new process
    srv = await startTestServer(env);
    const again = await srv.rest('GET', '/v1/wallets/mongo-walkthrough', { key });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(wallet.body.id);
    expect(again.body.address).toBe(wallet.body.address);
    const usageAfter = await srv.admin.usage(accountId);
    // the read above counts too
    expect(usageAfter.credits.used).toBeGreaterThanOrEqual(usageBefore.credits.used);
    expect(usageAfter.wallets.count).toBe(2);
    const listed = await srv.rest('GET', `/v1/intents?walletId=${wallet.body.id}`, { key });
    expect(listed.body.intents.map((i: Json) => i.id)).toContain(lend.body.id);

    const finished = await pollUntil(srv, key, bridge.body.id, (i) => i.status === 'completed' || i.status === 'failed');
    expect(finished.status).toBe('completed');
    expect(finished.results.transactions.filter((t: Json) => t.kind === 'burn')).toHaveLength(1);
    expect(finished.results.transactions.filter((t: Json) => t.kind === 'mint')).toHaveLength(1);
    const after = await srv.rest('GET', `/v1/balances/${second.body.id}`, { key });
    expect(usdcOn(after.body, 'arbitrum-sepolia')).toBe(0);
    expect(usdcOn(after.body, 'base-sepolia')).toBeGreaterThan(2.99);
  }, 120_000);

  test('behavior: two instances on one database: a subscription on one sees every change of an intent the other executes', async () => {
    const shared = { MONGODB_URI: withDatabase(uri, `${dbName}_pair`), KEY_VAULT_MASTER_KEY };
    const a = await startTestServer(shared);
    const b = await startTestServer(shared);
    try {
      const { key } = await a.admin.createAccount({ plan: 'pro' });
      const w = await a.rest('POST', '/v1/wallets', { key, body: { userId: 'two-instances' } });
      await a.rest('POST', '/admin/sandbox/mint', {
        key: ADMIN_TOKEN,
        body: { chain: 'arbitrum-sepolia', asset: 'USDC', address: w.body.address, amount: '2' },
      });
      // slows A's mint side down for a few seconds, so B's subscription opens while the intent is executing
      await a.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', kind: 'attestation-error', count: 3 } });
      const intent = await a.rest('POST', '/v1/intents', {
        key,
        body: { walletId: w.body.id, action: 'bridge', amount: 2, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' },
      });
      expect(intent.status).toBe(201);
      await pollUntil(a, key, intent.body.id, (i) => i.status === 'executing');

      const ws = createClient({
        url: b.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${key}` },
        retryAttempts: 0,
      });
      const seen: { status: string; transactions: number }[] = [];
      await new Promise<void>((resolve, reject) =>
        ws.subscribe(
          { query: 'subscription($id: ID!) { intentUpdated(id: $id) { status results { transactions { txHash } } } }', variables: { id: intent.body.id } },
          {
            next: (r) =>
              seen.push({ status: (r.data as Json).intentUpdated.status, transactions: (r.data as Json).intentUpdated.results?.transactions.length ?? 0 }),
            error: reject,
            complete: resolve,
          },
        ),
      );
      await ws.dispose();
      // B's engine never ran it: everything after the first snapshot came over the event log
      expect(seen[0]!.status).toBe('EXECUTING');
      expect(seen.at(-1)!.status).toBe('COMPLETED');
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.at(-1)!.transactions).toBeGreaterThan(seen[0]!.transactions);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
      await client.connect();
      await client
        .db(`${dbName}_pair`)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    }
  }, 60_000);
}
