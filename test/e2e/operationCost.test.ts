import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestServer, type Json, type TestServer } from '../helpers/server';

/** GraphQL operation cost: checked before any resolver runs, credits reserved for the whole operation, all or nothing, on every transport. */
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(() => srv?.stop());

const aliases = (n: number, field = 'yields { best { apy } }') => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
const used = async (accountId: string) => (await srv.admin.usage(accountId)).credits.used;

async function overWebSocket(key: string, query: string): Promise<Json> {
  const ws = createClient({
    url: srv.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  try {
    return await new Promise((resolve, reject) => {
      let result: Json;
      ws.subscribe(
        { query },
        { next: (r) => (result = r), error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)), complete: () => resolve(result) },
      );
    });
  } finally {
    await ws.dispose();
  }
}

describe('operation cost', () => {
  // 1,000 aliases no longer parse (the 2,000-token bound answers QUERY_TOO_LARGE); 200 still do.
  test('error: 200 aliases of yields on a free account → QUERY_TOO_COMPLEX with the cost, before any resolver: no credit spent, over POST, GET and WebSocket', async () => {
    const free = await srv.admin.createAccount({ plan: 'free' });
    const query = aliases(200);
    const post = await srv.gql(query, {}, free.key);
    const get = await fetch(`${srv.url}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { Authorization: `Bearer ${free.key}`, Accept: 'application/json' },
    });
    const ws = await overWebSocket(free.key, query);
    for (const body of [post.body, (await get.json()) as Json, ws]) {
      expect(body.data ?? null).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', cost: 200, rootFields: 200, maxRootFields: 20, maxCost: 10 });
    }
    expect(await used(free.accountId)).toBe(0);
  });

  test('error: enterprise too: 200 aliases are refused at once (20 root fields at most on any plan); 1,000 do not even parse', async () => {
    const big = await srv.admin.createAccount({ plan: 'enterprise' });
    const r = await srv.gql(aliases(200), {}, big.key);
    expect(r.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', maxRootFields: 20 });
    expect((await srv.gql(aliases(1000), {}, big.key)).body.errors[0].extensions.code).toBe('QUERY_TOO_LARGE');
    expect(r.text.length).toBeLessThan(1000);
  });

  test("behavior: the free plan's cap is 10 credits an operation: 10 aliases run and cost 10; 11 are refused and cost nothing; root fragments count", async () => {
    const free = await srv.admin.createAccount({ plan: 'free' });
    const ten = await srv.gql(aliases(10), {}, free.key);
    expect(ten.body.errors).toBeUndefined();
    expect(await used(free.accountId)).toBe(10);
    const eleven = await srv.gql(aliases(11), {}, free.key);
    expect(eleven.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', cost: 11, maxCost: 10 });
    const viaFragment = await srv.gql(
      `query { ...Six ...Five } fragment Six on Query { ${Array.from({ length: 6 }, (_, i) => `s${i}: yields { best { apy } }`).join(' ')} } fragment Five on Query { ${Array.from({ length: 5 }, (_, i) => `f${i}: yields { best { apy } }`).join(' ')} }`,
      {},
      free.key,
    );
    expect(viaFragment.body.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', cost: 11 });
    expect(await used(free.accountId)).toBe(10);
  });

  test('error: 5 credits left and an operation costing 8 → CREDITS_EXHAUSTED for the whole operation; nothing ran, nothing spent (never a partial burn)', async () => {
    // A window wide enough for 100 credits' worth of operations in one minute (operations count in it by their cost).
    const free = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
    for (let i = 0; i < 9; i++) expect((await srv.gql(aliases(10), {}, free.key)).body.errors).toBeUndefined();
    expect((await srv.gql(aliases(5), {}, free.key)).body.errors).toBeUndefined();
    expect(await used(free.accountId)).toBe(95);
    const r = await srv.gql(aliases(8), {}, free.key);
    expect(r.body.data ?? null).toBeNull();
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0].extensions).toMatchObject({ code: 'CREDITS_EXHAUSTED' });
    expect(await used(free.accountId)).toBe(95);
    expect((await srv.gql(aliases(5), {}, free.key)).body.errors).toBeUndefined();
    expect(await used(free.accountId)).toBe(100);
  });

  test('behavior: an operation counts in the rate window by its cost, not as 1: three of 10 fill a window of 30, the next request is 429', async () => {
    const free = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 30 });
    for (let i = 0; i < 3; i++) expect((await srv.gql(aliases(10), {}, free.key)).body.errors).toBeUndefined();
    const next = await srv.gql('{ yields { best { apy } } }', {}, free.key);
    expect(next.status).toBe(429);
    expect(next.body.errors[0].extensions.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  test('behavior: aliases of one read with the same arguments read the chains once per operation (and a cold cache once for everyone)', async () => {
    const pro = await srv.admin.createAccount({ plan: 'pro' });
    const chains = srv.service.deps.chains;
    const original = chains.rates.bind(chains);
    let reads = 0;
    chains.rates = async () => {
      reads++;
      return original();
    };
    try {
      srv.service.deps.caches.rates.clear();
      const r = await srv.gql(aliases(10, 'yields(asset: USDC) { best { apy } }'), {}, pro.key);
      expect(r.body.errors).toBeUndefined();
      expect(new Set(Object.values(r.body.data).map((v: Json) => v.best.apy)).size).toBe(1);
      expect(reads).toBe(1);
    } finally {
      chains.rates = original;
    }
  });

  test("behavior: one account's heaviest operations on a cold cache never hurt another account: its GET /v1/yields answers 200, and the heavy ones never answer INTERNAL_ERROR", async () => {
    const heavy = await srv.admin.createAccount({ plan: 'enterprise' });
    const other = await srv.admin.createAccount({ plan: 'free' });
    srv.service.deps.caches.rates.clear();
    const heavyOps = Array.from({ length: 6 }, (_, i) => srv.gql(aliases(i % 2 === 0 ? 1000 : 20), {}, heavy.key));
    const others = Array.from({ length: 5 }, () => srv.rest('GET', '/v1/yields', { key: other.key }));
    const [h, o] = await Promise.all([Promise.all(heavyOps), Promise.all(others)]);
    expect(o.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const codes = h.flatMap((r) => (r.body.errors ?? []).map((e: Json) => e.extensions.code));
    expect(codes).not.toContain('INTERNAL_ERROR');
    expect(new Set(codes)).toEqual(new Set(['QUERY_TOO_LARGE'])); // the 20-alias ones ran, the 1,000-alias ones were refused unparsed
  });

  test('behavior: credits are spent on successes only: a failing field gives its share back', async () => {
    const pro = await srv.admin.createAccount({ plan: 'pro' });
    const r = await srv.gql('{ a: wallet(userId: "nobody-here") { id } b: yields { best { apy } } }', {}, pro.key);
    expect(r.body.errors.map((e: Json) => e.extensions.code)).toEqual(['WALLET_NOT_FOUND']);
    expect(await used(pro.accountId)).toBe(1);
  });
});
