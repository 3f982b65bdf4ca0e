import { ADMIN_TOKEN, type Json, type TestServer } from '../helpers/server';
import { startOwnSandboxServer, type OwnSandboxServer } from '../helpers/ownSandbox';

/**
 * APY history end to end on devnets of its own (it sets a
 * lending rate, which is global to a devnet): the sampler reads the on-chain
 * rates every 250 ms here (YIELD_SAMPLE_INTERVAL_MS), keeps one sample per
 * market and minute, and GET /v1/yields/history and GraphQL yieldHistory
 * answer the same buckets.
 */
let own: OwnSandboxServer | undefined;
let srv: TestServer;
let key: string;

beforeAll(async () => {
  own = await startOwnSandboxServer({ YIELD_SAMPLE_INTERVAL_MS: '250' });
  srv = own.srv;
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
}, 60_000);
afterAll(async () => {
  await own?.stop();
});

const history = (query: string) => srv.rest('GET', `/v1/yields/history${query}`, { key });
const latest = (body: Json) => body.series?.[0]?.buckets?.at(-1);

/** Polls the history of one market until `accept` holds for its latest bucket (bounded: the sampler runs every 250 ms). */
async function waitForLatest(query: string, accept: (bucket: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + 20_000;
  let last: Json;
  while (Date.now() < deadline) {
    const r = await history(query);
    expect(r.status).toBe(200);
    last = r.body;
    if (latest(last) && accept(latest(last))) return last;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error(`history never satisfied the check: ${JSON.stringify(last)}`);
}

test('behavior: a sandbox rate change shows in the latest bucket of the history (REST and GraphQL the same), one series per market', async () => {
  const market = '?chain=ethereum-sepolia&protocol=aave-v3&asset=USDC&bucket=1m';
  const before = await waitForLatest(market, () => true);
  expect(before.series).toHaveLength(1);
  expect(before.series[0]).toMatchObject({ chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC' });
  expect(before.bucket).toBe('1m');
  expect(latest(before).max).not.toBeCloseTo(11.11, 2);

  const set = await srv.rest('POST', '/admin/sandbox/rates', {
    key: ADMIN_TOKEN,
    body: { chain: 'ethereum-sepolia', protocol: 'aave-v3', asset: 'USDC', apy: 11.11 },
  });
  expect(set.status).toBe(200);
  const after = await waitForLatest(market, (b) => Math.abs(b.max - 11.11) < 0.005);
  const bucket = latest(after);
  expect(bucket.samples).toBe(1); // one sample per market and minute, however often it is read
  expect(bucket.mean).toBeCloseTo(11.11, 2);
  expect(Date.parse(bucket.end) - Date.parse(bucket.start)).toBe(60_000);

  const all = await history('');
  expect(all.status).toBe(200);
  expect(all.body.bucket).toBe('5m');
  const markets = all.body.series.map((s: Json) => `${s.chain}/${s.protocol}/${s.asset}`);
  expect(markets).toContain('ethereum-sepolia/aave-v3/USDC');
  expect(new Set(markets).size).toBe(markets.length);

  const gql = await srv.gql(
    `query($from: DateTime, $to: DateTime) { yieldHistory(chain: ETHEREUM_SEPOLIA, protocol: AAVE_V3, asset: USDC, bucket: MINUTE, from: $from, to: $to) {
      bucket series { chain protocol asset buckets { start end min max mean samples } } } }`,
    { from: after.from, to: after.to },
    key,
  );
  expect(gql.body.errors).toBeUndefined();
  const g = gql.body.data.yieldHistory;
  expect(g.bucket).toBe('MINUTE');
  expect(g.series[0]).toMatchObject({ chain: 'ETHEREUM_SEPOLIA', protocol: 'AAVE_V3', asset: 'USDC' });
  expect(g.series[0].buckets.at(-1).max).toBeCloseTo(11.11, 2);
});

test('error: bad parameters are one 400 INVALID_REQUEST naming each (REST), and the same error on GraphQL; no credit charged', async () => {
  const acct = await srv.admin.createAccount({ plan: 'free' });
  const r = await srv.rest('GET', '/v1/yields/history?chain=mars&bucket=2m&from=yesterday&sort=asc', { key: acct.key });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('INVALID_REQUEST');
  expect(r.body.details.issues.map((i: Json) => i.path).sort()).toEqual(['bucket', 'chain', 'from', 'sort']);
  const range = await srv.rest('GET', '/v1/yields/history?from=2026-01-01&to=2026-03-01', { key: acct.key });
  expect(range.status).toBe(400);
  expect(range.body.details.issues.map((i: Json) => i.path)).toEqual(['from']);
  const gql = await srv.gql('{ yieldHistory(from: "2026-03-01T00:00:00Z", to: "2026-02-01T00:00:00Z") { bucket } }', undefined, acct.key);
  expect(gql.body.data.yieldHistory).toBeNull();
  expect(gql.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
  expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(0);
  const ok = await srv.rest('GET', '/v1/yields/history', { key: acct.key });
  expect(ok.status).toBe(200);
  expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(1);
});
