import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { ADMIN_TOKEN, fitInRateWindow, LEAK, startTestServer, type TestServer } from '../helpers/server';

/**
 * The attacks of the authorization-and-abuse review, each as it was
 * reproduced, against the real service (dev and production mode).
 */
let dev: TestServer;
let prod: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  [dev, prod] = await Promise.all([startTestServer(), startTestServer({ NODE_ENV: 'production' })]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all([dev?.stop(), prod?.stop()]);
});

function wsClient(srv: TestServer, key: string): { client: Client; closed: Promise<number> } {
  let onClosed!: (code: number) => void;
  const closed = new Promise<number>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: srv.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: false,
    on: { closed: (e) => onClosed((e as { code: number }).code) },
  });
  clients.push(client);
  return { client, closed };
}

/** One operation over the socket: its data or its errors. */
function run(client: Client, query: string): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve) => {
    let result: { data?: any; errors?: any[] } = {};
    client.subscribe(
      { query },
      {
        next: (r) => (result = r as typeof result),
        error: (e) => resolve({ errors: Array.isArray(e) ? e : [e] }),
        complete: () => resolve(result),
      },
    );
  });
}

describe('admin and /v1 guards by path spelling', () => {
  test('error: POST /Admin/accounts without a token is 404 (was 201 with an enterprise key)', async () => {
    for (const path of ['/Admin/accounts', '/ADMIN/accounts', '/admin/Accounts', '/admin/accounts/', '//admin/accounts', '/%61dmin/accounts']) {
      const a = await dev.rest('POST', path, { body: { plan: 'enterprise' } });
      expect({ path, status: a.status }).toEqual({ path, status: 404 });
      expect(a.text).not.toContain('svc_sk_');
    }
    expect((await dev.rest('POST', '/admin/accounts', { body: { plan: 'enterprise' } })).status).toBe(401);
  });

  test('error: DELETE /ADMIN/keys/:id and /aDmin/sandbox/* without a token reach no handler', async () => {
    const acct = await dev.admin.createAccount();
    expect((await dev.rest('DELETE', `/ADMIN/keys/${acct.keyId}`)).status).toBe(404);
    expect((await dev.rest('GET', '/v1/yields', { key: acct.key })).status).toBe(200);
    for (const p of ['faults', 'mint', 'rates', 'time']) {
      expect((await dev.rest('POST', `/aDmin/sandbox/${p}`, { body: {} })).status).toBe(404);
      expect((await dev.rest('POST', `/admin/sandbox/${p}`, { body: {} })).status).toBe(401);
    }
  });

  test('error: GET /V1/yields is a 404 NOT_FOUND (was 500 "operation() used without admission()")', async () => {
    const acct = await dev.admin.createAccount();
    for (const path of ['/V1/yields', '/v1/Yields', '/v1/yields/']) {
      const a = await dev.rest('GET', path, { key: acct.key });
      expect({ path, status: a.status, error: a.body.error }).toEqual({ path, status: 404, error: 'NOT_FOUND' });
    }
  });
});

describe('GraphQL admission', () => {
  const encodedQuery = '/graphql?%71uery=%7B__typename%7D';

  test('error: production, GET with an encoded `query` parameter and Accept text/html, no key: 401, nothing executed', async () => {
    const res = await fetch(prod.url + encodedQuery, { headers: { Accept: 'text/html, application/json' } });
    const body = await res.text();
    expect(res.status).toBe(401);
    expect(body).not.toContain('"__typename"');
    expect(body).toContain('UNAUTHORIZED');
  });

  test('behavior: development, the same request gets the GraphiQL page, not an anonymous execution', async () => {
    const res = await fetch(dev.url + encodedQuery, { headers: { Accept: 'text/html, application/json' } });
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).not.toContain('{"data"');
  });

  test('error: production, any other GET or POST without a key is 401', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json', 'text/event-stream', '*/*']) {
      const res = await fetch(prod.url + '/graphql?query=%7B__typename%7D', { headers: { Accept: accept } });
      expect({ accept, status: res.status }).toEqual({ accept, status: 401 });
    }
  });
});

describe('production GraphQL: no suggestions, no introspection, on every transport', () => {
  test('error: a misspelt field gets no "Did you mean" over HTTP POST and GET', async () => {
    const acct = await prod.admin.createAccount();
    const post = await prod.gql('{ yeilds { best { apy } } }', undefined, acct.key);
    expect(post.body.errors[0].message).toMatch(/Cannot query field "yeilds"/);
    expect(post.text).not.toMatch(/Did you mean/);
    const get = await fetch(prod.url + '/graphql?query=' + encodeURIComponent('{ yeilds { best { apy } } }'), {
      headers: { Authorization: `Bearer ${acct.key}`, Accept: 'application/json' },
    });
    const text = await get.text();
    expect(text).toMatch(/Cannot query field/);
    expect(text).not.toMatch(/Did you mean/);
  });

  test('error: introspection and suggestions are refused over graphql-ws too', async () => {
    const acct = await prod.admin.createAccount({ plan: 'pro' });
    const { client } = wsClient(prod, acct.key);
    const intro = await run(client, '{ __schema { types { name } } }');
    expect(intro.data).toBeUndefined();
    expect(JSON.stringify(intro.errors)).toMatch(/introspection/i);
    const typo = await run(client, '{ yeilds { best { apy } } }');
    expect(JSON.stringify(typo.errors)).toMatch(/Cannot query field/);
    expect(JSON.stringify(typo.errors)).not.toMatch(/Did you mean/);
    // The depth limit is enforced over the socket as over HTTP, introspection fields counted.
    const deep = await run(client, '{ __type(name: "Query") { fields { type ' + '{ ofType '.repeat(8) + '{ name }' + ' }'.repeat(8) + ' } } }');
    expect(JSON.stringify(deep.errors)).toMatch(/Query depth 12 exceeds the limit of 10/);
  });

  test('behavior: development keeps introspection and suggestions (GraphiQL needs them)', async () => {
    const acct = await dev.admin.createAccount();
    const typo = await dev.gql('{ yeilds { best { apy } } }', undefined, acct.key);
    expect(typo.body.errors[0].message).toMatch(/Did you mean "yields"/);
    const intro = await dev.gql('{ __schema { queryType { name } } }', undefined, acct.key);
    expect(intro.body.data.__schema.queryType.name).toBe('Query');
  });
});

describe('bounded parsing', () => {
  test('error: 90,000 __typename tokens (≈1 MB) are refused as QUERY_TOO_LARGE before any validation', async () => {
    const acct = await dev.admin.createAccount({ plan: 'pro' });
    const doc = '{ ' + '__typename '.repeat(90_000) + '}';
    const a = await dev.gql(doc, undefined, acct.key);
    expect(a.body.errors[0].extensions.code).toBe('QUERY_TOO_LARGE');
    expect(a.text).not.toMatch(/Validation aborted/);
  });

  test('error: 2,001 tokens in a short document are QUERY_TOO_LARGE naming the token limit', async () => {
    const acct = await dev.admin.createAccount({ plan: 'pro' });
    const a = await dev.gql('{ ' + 'a '.repeat(2_001) + '}', undefined, acct.key);
    expect(a.body.errors[0]).toMatchObject({ message: 'The document has more than 2000 tokens', extensions: { code: 'QUERY_TOO_LARGE' } });
  });

  test('error: a selection set nested 6,000 deep is a clean error, never a RangeError (POST, GET and WebSocket)', async () => {
    const acct = await dev.admin.createAccount({ plan: 'pro' });
    const deep = '{ ' + 'a { '.repeat(6_000) + 'b' + ' }'.repeat(6_000) + ' }';
    const post = await dev.gql(deep, undefined, acct.key);
    expect(post.text).not.toMatch(/RangeError|call stack/);
    expect(post.body.errors[0].extensions.code).toBe('QUERY_TOO_LARGE');
    // Within the token limit, 40 levels are refused by the nesting bound, naming it.
    const forty = '{ ' + 'a { '.repeat(40) + 'b' + ' }'.repeat(40) + ' }';
    for (const a of [await dev.gql(forty, undefined, acct.key), await dev.gql(forty, undefined, acct.key, { Accept: 'application/graphql-response+json' })]) {
      expect(a.body.errors[0]).toMatchObject({ message: 'The document nests deeper than 32 levels', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    }
    const get = await fetch(dev.url + '/graphql?query=' + encodeURIComponent(forty), {
      headers: { Authorization: `Bearer ${acct.key}`, Accept: 'application/json' },
    });
    expect(await get.text()).toMatch(/nests deeper than 32 levels/);
    const { client } = wsClient(dev, acct.key);
    expect(JSON.stringify((await run(client, forty)).errors)).toMatch(/nests deeper than 32 levels/);
  });

  test('error: GraphQL variables nested past 32 levels are 400 INVALID_REQUEST before validation', async () => {
    const acct = await dev.admin.createAccount({ plan: 'pro' });
    let v: unknown = 1;
    for (let i = 0; i < 40; i++) v = { v };
    const a = await dev.gql('query($m: JSON) { __typename }', { m: v }, acct.key);
    expect(a.status).toBe(400);
    expect(a.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
  });

  test('error: POST /v1/wallets whose metadata nests 10,000 deep is 400 INVALID_REQUEST (was 500)', async () => {
    const acct = await dev.admin.createAccount();
    const body = '{"userId":"deep","metadata":' + '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000) + '}';
    const a = await dev.rest('POST', '/v1/wallets', { key: acct.key, body });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe('INVALID_REQUEST');
    expect(a.body.message).toMatch(/deeper than 32/);
    expect(a.text).not.toMatch(LEAK);
  });
});

describe('every operation counts, and only the account’s own', () => {
  test('error: 300 operations on one socket with a 5/min account: at most the window executes, the rest are RATE_LIMIT_EXCEEDED, the socket stays open', async () => {
    await fitInRateWindow(15_000);
    const acct = await dev.admin.createAccount({ plan: 'pro', requestsPerMinute: 5 });
    const { client, closed } = wsClient(dev, acct.key);
    const results = await Promise.all(Array.from({ length: 300 }, () => run(client, '{ yields { best { apy } } }')));
    const ok = results.filter((r) => r.data?.yields);
    const limited = results.filter((r) => r.errors?.[0]?.extensions?.code === 'RATE_LIMIT_EXCEEDED');
    expect(ok.length).toBe(4); // the connection took the first unit
    expect(limited.length).toBe(296);
    const rest = await dev.rest('GET', '/v1/yields', { key: acct.key });
    expect(rest.status).toBe(429);
    // Still open: the next operation is answered on the same socket.
    expect((await run(client, '{ yields { best { apy } } }')).errors?.[0]?.extensions?.code).toBe('RATE_LIMIT_EXCEEDED');
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(isClosed).toBe(false);
  });

  test('error: 25 requests with a revoked key do not spend the account window (limit 20/min)', async () => {
    await fitInRateWindow(10_000);
    const acct = await dev.admin.createAccount({ requestsPerMinute: 20 });
    const leaked = await dev.admin.issueKey(acct.accountId);
    await dev.admin.revokeKey(leaked.id);
    for (let i = 0; i < 25; i++) {
      const a = await dev.rest('GET', '/v1/yields', { key: leaked.key });
      expect(a.status).toBe(401);
    }
    const good = await dev.rest('GET', '/v1/yields', { key: acct.key });
    expect(good.status).toBe(200);
    expect(good.headers.get('x-ratelimit-remaining')).toBe('19');
    expect((await dev.gql('{ yields { best { apy } } }', undefined, acct.key)).body.data.yields.best.apy).toBeGreaterThan(0);
  });

  test('error: an unknown key never counts anywhere (a wrong key is 401 without rate headers)', async () => {
    const a = await dev.rest('GET', '/v1/yields', { key: 'svc_sk_' + '0'.repeat(64) });
    expect(a.status).toBe(401);
    expect(a.headers.get('x-ratelimit-limit')).toBeNull();
    expect(ADMIN_TOKEN).not.toBe('');
  });
});

describe('plan rules on reads', () => {
  test('error: a free key naming a main network is 403 PLAN_RESTRICTED on GET /v1/yields and GraphQL yields (was 200 with no rates); no credit charged', async () => {
    const free = await dev.admin.createAccount({ plan: 'free' });
    const rest = await dev.rest('GET', '/v1/yields?chain=ethereum', { key: free.key });
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ error: 'PLAN_RESTRICTED', details: { plan: 'free', chain: 'ethereum' } });
    const gql = await dev.gql('{ yields(chain: ETHEREUM) { rates { apy } } }', undefined, free.key);
    expect(gql.body.errors[0].extensions.code).toBe('PLAN_RESTRICTED');
    expect((await dev.admin.usage(free.accountId)).credits.used).toBe(0);
    // A test network is fine.
    expect((await dev.rest('GET', '/v1/yields?chain=base-sepolia', { key: free.key })).status).toBe(200);
  });

  test('error: a paid plan naming a main network that is not active yet is 400 INVALID_CHAIN with status "upcoming", as for intents', async () => {
    const pro = await dev.admin.createAccount({ plan: 'pro' });
    const rest = await dev.rest('GET', '/v1/yields?chain=base', { key: pro.key });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ error: 'INVALID_CHAIN', details: { status: 'upcoming' } });
  });
});

describe('admin inputs are validated like public ones', () => {
  const mint = (amount: unknown, asset = 'USDC') =>
    dev.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', asset, address: '0x' + '11'.repeat(20), amount } });

  test('error: every malformed mint amount is 400 INVALID_REQUEST naming the rule (was 500 for 1e-7 and 80 digits)', async () => {
    const cases: [unknown, RegExp][] = [
      [1e-7, /send it as a decimal string/],
      ['9'.repeat(80), /below 1000000000000000 tokens/],
      ['0', /greater than 0/],
      [-5, /plain decimal|decimal string/],
      ['1.1234567', /7 decimals; USDC has 6/],
      ['12abc', /decimal string/],
      [null, /.+/],
    ];
    for (const [amount, rule] of cases) {
      const a = await mint(amount);
      expect({ amount, status: a.status, error: a.body.error }).toEqual({ amount, status: 400, error: 'INVALID_REQUEST' });
      expect(JSON.stringify(a.body.details.issues)).toMatch(rule);
    }
  });

  test('error: a mint to an address the token refuses is 400 INVALID_REQUEST naming address (was 500): the zero address on every asset, USDC to its own contract', async () => {
    const manifest = (await dev.rest('GET', '/admin/sandbox/manifest', { key: ADMIN_TOKEN })).body;
    const cases: [string, string, string, RegExp][] = [
      ...(['base-sepolia', 'arbitrum-sepolia'] as const).flatMap((chain) =>
        Object.keys(manifest.chains[chain].tokens).map((asset): [string, string, string, RegExp] => [chain, asset, '0x' + '00'.repeat(20), /zero address/]),
      ),
      ['base-sepolia', 'USDC', manifest.chains['base-sepolia'].tokens.USDC, /USDC contract/],
    ];
    for (const [chain, asset, address, rule] of cases) {
      const a = await dev.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain, asset, address, amount: '1' } });
      expect({ chain, asset, status: a.status, error: a.body.error }).toEqual({ chain, asset, status: 400, error: 'INVALID_REQUEST' });
      expect(a.body.details.issues).toEqual([expect.objectContaining({ path: 'address', message: expect.stringMatching(rule) })]);
    }
  });

  test('behavior: good amounts mint (string or plain number)', async () => {
    expect((await mint('2.5')).status).toBe(200);
    expect((await mint(3)).status).toBe(200);
    expect((await mint('0.000000000000000001', 'WETH')).status).toBe(200);
  });
});

describe('shared resources have per-account budgets', () => {
  test('error: 10 aliased createWallet, then 90 aliased fundDemoWallet in mutations of 18: exactly 50 fund (the account budget), the 51st is FUNDING_LIMIT_EXCEEDED scope account', async () => {
    const pro = await dev.admin.createAccount({ plan: 'pro' });
    const tag = Date.now().toString(36);
    const creates = Array.from({ length: 10 }, (_, i) => `w${i}: createWallet(input: {userId: "alias-${tag}-${i}"}) { id }`).join('\n');
    const made = await dev.gql(`mutation { ${creates} }`, undefined, pro.key);
    expect(made.body.errors).toBeUndefined();
    const ids = Object.values(made.body.data as Record<string, { id: string }>).map((w) => w.id);
    // Five mutations of 18 (an operation selects at most 20 root fields): f0..f89.
    const errors: any[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const funds = Array.from({ length: 18 }, (_, j) => batch * 18 + j)
        .map((i) => `f${i}: fundDemoWallet(walletId: "${ids[i % 10]}") { txHash }`)
        .join('\n');
      const funded = await dev.gql(`mutation { ${funds} }`, undefined, pro.key);
      errors.push(...((funded.body.errors as any[] | undefined) ?? []));
    }
    // The 51st is refused (its field null, with its error); the later ones are refused one by one.
    const refused = errors.filter((e) => e.extensions.code === 'FUNDING_LIMIT_EXCEEDED');
    expect(refused[0].path).toEqual(['f50']);
    // 10 wallets + exactly 50 fundings were charged: credits reserved up front for the fields that failed or never ran came back.
    expect((await dev.admin.usage(pro.accountId)).credits.used).toBe(60);
    expect(refused[0].extensions.details).toMatchObject({ scope: 'account', limit: 50, windowHours: 24 });
  });

  test('error: a lend of 0.000001 USDC is 400 naming the minimum, on REST and GraphQL', async () => {
    const pro = await dev.admin.createAccount({ plan: 'pro' });
    const w = await dev.rest('POST', '/v1/wallets', { key: pro.key, body: { userId: `min-${Date.now()}` } });
    const rest = await dev.rest('POST', '/v1/intents', { key: pro.key, body: { walletId: w.body.id, action: 'lend', amount: '0.000001' } });
    expect(rest.status).toBe(400);
    expect(rest.body.details.issues).toContainEqual(expect.objectContaining({ path: 'amount', message: expect.stringMatching(/at least 0.01/) }));
    const gql = await dev.gql('mutation($w: ID!) { createIntent(input: {walletId: $w, action: LEND, amount: "0.000001"}) { id } }', { w: w.body.id }, pro.key);
    expect(gql.body.errors[0].extensions.code).toBe('INVALID_REQUEST');
    expect(JSON.stringify(gql.body.errors[0].extensions.details)).toMatch(/at least 0.01/);
  });
});
