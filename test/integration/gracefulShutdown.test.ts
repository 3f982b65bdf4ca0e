import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../helpers/server';

/**
 * Graceful shutdown under load, on the MongoDB lane so a
 * second process can pick up: stop() while bridges execute and a request is
 * in flight. The request in flight completes, a new one is refused (503 or no
 * connection, never served), the engine stops at a persisted transition, and
 * the next start resumes every intent: each burn and each mint sent once.
 */
const uri = process.env.MONGODB_URI;

function withDatabase(base: string, db: string): string {
  const [head, query] = base.split('?') as [string, string | undefined];
  const hosts = head.replace(/^mongodb(\+srv)?:\/\//, '').split('/')[0];
  return `mongodb://${hosts}/${db}${query ? `?${query}` : ''}`;
}

if (!uri) {
  console.log('skipped: graceful shutdown across restarts (set MONGODB_URI, or let the test lane start its server)');
  test.skip('runs only with MONGODB_URI', () => undefined);
} else {
  const dbName = `shutdown_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const env = { MONGODB_URI: withDatabase(uri, dbName), KEY_VAULT_MASTER_KEY: randomBytes(32).toString('hex') };
  let second: TestServer | undefined;

  afterAll(async () => {
    await second?.stop();
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    await client.connect();
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  });

  test('behavior: stop() under load: in-flight answers complete, new requests are refused, and the next start finishes every intent with each transaction sent once', async () => {
    const first = await startTestServer(env);
    const { key } = await first.admin.createAccount({ plan: 'pro' });
    const wallets: Json[] = [];
    for (let i = 0; i < 4; i++) {
      const w = await first.rest('POST', '/v1/wallets', { key, body: { userId: `drain-${i}` } });
      await first.rest('POST', '/admin/sandbox/mint', {
        key: ADMIN_TOKEN,
        body: { chain: 'arbitrum-sepolia', asset: 'USDC', address: w.body.address, amount: '2' },
      });
      wallets.push(w.body);
    }
    // the mint side keeps failing on this process: the bridges are mid-way when it stops
    await first.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', kind: 'attestation-error', count: 100 } });
    const intents = await Promise.all(
      wallets.map(
        async (w) =>
          (
            await first.rest('POST', '/v1/intents', {
              key,
              body: { walletId: w.id, action: 'bridge', amount: 2, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' },
            })
          ).body,
      ),
    );
    for (const i of intents) {
      for (let n = 0; n < 200; n++) {
        const r = await first.rest('GET', `/v1/intents/${i.id}`, { key });
        if (r.body.results?.transactions.some((t: Json) => t.kind === 'burn' && t.status === 'confirmed')) break;
        await new Promise((res) => setTimeout(res, 50));
      }
    }

    // stop() begins the moment the server has taken the request (it is then running, not merely sent)
    const stoppingOnArrival = new Promise<Promise<void>>((resolve) => first.service.server.once('request', () => resolve(first.stop())));
    const inFlight = fetch(`${first.url}/v1/balances/${wallets[0].id}`, { headers: { Authorization: `Bearer ${key}` } });
    const stopping = await stoppingOnArrival;
    const late = await fetch(`${first.url}/v1/yields`, { headers: { Authorization: `Bearer ${key}` } }).then(
      (r) => r.status,
      () => 'refused',
    );
    expect((await inFlight).status).toBe(200);
    expect([503, 'refused']).toContain(late);
    await stopping;

    second = await startTestServer(env);
    for (const i of intents) {
      let done: Json;
      for (let n = 0; n < 300; n++) {
        done = (await second.rest('GET', `/v1/intents/${i.id}`, { key })).body;
        if (done.status === 'completed' || done.status === 'failed') break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(done!.status).toBe('completed');
      const kinds = done!.results.transactions.map((t: Json) => t.kind).sort();
      expect(kinds).toEqual(['approve', 'burn', 'mint']);
    }
    for (const w of wallets) {
      const b = (await second.rest('GET', `/v1/balances/${w.id}`, { key })).body;
      const usdc = (chain: string) => Number(b.chains.find((c: Json) => c.chain === chain).tokens.find((t: Json) => t.asset === 'USDC')?.balanceFormatted ?? 0);
      expect(usdc('arbitrum-sepolia')).toBe(0);
      expect(usdc('base-sepolia')).toBeGreaterThan(1.99);
    }
  }, 120_000);
}
