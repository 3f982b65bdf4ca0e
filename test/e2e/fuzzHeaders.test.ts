import { request } from 'node:http';
import fc from 'fast-check';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

/**
 * Property-based fuzzing of request HEADERS: every /v1
 * route, the admin API's account routes and /graphql (POST and GET) get
 * generated Authorization shapes, Content-Type, Accept, Idempotency-Key,
 * payment proofs (PAYMENT-SIGNATURE, X-PAYMENT, X-Payment-Proof), X-Account-Id,
 * X-Request-Id, Cookie and Origin, with unicode (sent as its UTF-8 bytes),
 * whitespace, repeated headers, and one value up to ~12 KB (Node's limit for
 * all headers is 16 KB). Properties: never a 5xx, never a hang (each request
 * is bounded), REST errors in the JSON error object, GraphQL errors with
 * `extensions.code` (JSON, SSE or multipart alike), and the server healthy
 * afterwards. Seeded and bounded in `npm test`; FUZZ_RUNS and FUZZ_SEED go further.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** One request may take this long at most: past it, the property fails as a hang. */
const HANG_MS = 10_000;

let srv: TestServer;
let key: string;
let walletId: string;
beforeAll(async () => {
  srv = await startTestServer();
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
  const w = await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'fuzz-headers-owner' } });
  expect(w.status).toBe(201);
  walletId = w.body.id;
}, 60_000);
afterAll(() => srv?.stop());

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A header list as sent on the wire (a name may repeat); values are latin1 strings, i.e. raw bytes. */
type HeaderList = [string, string][];

/** One request over node:http (fetch refuses some of these headers), failing as a hang past HANG_MS. */
function send(method: string, path: string, headers: HeaderList, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // a header list given as an array is sent as is: Host too must be in it
    const flat = ['Host', new URL(srv.url).host, ...headers.flatMap(([k, v]) => [k, v])];
    if (body !== undefined) flat.push('Content-Length', String(Buffer.byteLength(body)));
    const req = request(`${srv.url}${path}`, { method, headers: flat, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`hang: ${method} ${path} did not answer within ${HANG_MS} ms`)));
    req.on('error', reject);
    // a Buffer, not a string: a string body would make node:http write the headers with it as UTF-8, doubling their high bytes
    req.end(body === undefined ? undefined : Buffer.from(body, 'utf8'));
  });
}

/** A string as the bytes of its UTF-8 encoding, each byte one latin1 character: what a header can carry. */
const asBytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
/** Header values may not hold control characters (the client refuses to send them): those are dropped. */
const printable = (s: string): string => [...s].filter((ch) => ch === '\t' || (ch >= ' ' && ch !== '\u007f')).join('');

const text = fc
  .oneof(
    fc.string({ maxLength: 60 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom('', ' ', '\t', '  x  ', 'null', 'undefined', '{}', '[]', '__proto__', '%00', '%ff', '\u00ff\u00fe', '😀', 'é', '\u202e'),
  )
  .map((s) => asBytes(printable(s)));

const garbageProof = fc.oneof(
  text,
  fc.base64String({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64')),
  fc
    .record({
      x402Version: fc.oneof(fc.constantFrom(1, 2), fc.integer()),
      scheme: fc.oneof(fc.constant('exact'), fc.string({ maxLength: 8 })),
      network: fc.constantFrom('base-sepolia', 'eip155:84532', 'x'),
      payload: fc.jsonValue({ maxDepth: 2 }),
    })
    .map((v) => Buffer.from(JSON.stringify(v)).toString('base64')),
);

const authorization = fc.oneof(
  fc.constant(() => `Bearer ${key}`),
  fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Token', 'ApiKey', 'Bearer ', '', 'Digest').chain((scheme) =>
    fc.oneof(
      fc.constant(() => `${scheme} ${key}`),
      fc.constant(() => `${scheme}  ${key}  `),
      fc.constant(() => `${scheme} ${key.slice(0, -1)}`),
      fc.constant(() => `${scheme} ${key}${key}`),
      fc.constant(() => `${scheme} ${key.toUpperCase()}`),
      fc.constant(() => `${scheme} ${key}, Bearer ${key}`),
      fc.constant(() => `${scheme} ${ADMIN_TOKEN}`),
      text.map((t) => () => `${scheme} ${t}`),
    ),
  ),
  text.map((t) => () => t),
);

const contentType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json;;;',
    'application/graphql',
    'application/graphql-response+json',
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/*',
    '*/*',
    '',
  ),
  text,
);

const accept = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/graphql-response+json',
    'application/graphql-response+json; charset=utf-8, application/json; q=0.9',
    'text/event-stream',
    'multipart/mixed',
    'multipart/mixed; deferSpec=20220824',
    'text/html',
    'application/xml',
    '*/*',
    'application/*',
    '',
    'text/html;q=0, */*;q=0',
  ),
  text,
);

const HEADER_NAMES = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Idempotency-Key',
  'PAYMENT-SIGNATURE',
  'X-PAYMENT',
  'X-Payment-Proof',
  'X-Account-Id',
  'X-Request-Id',
  'Cookie',
  'Origin',
] as const;

/** Which headers a request carries, each possibly twice, and at most one of them huge. */
const headerSet = fc
  .record(
    {
      authorization: fc.option(authorization, { nil: undefined }),
      contentType: fc.option(contentType, { nil: undefined }),
      accept: fc.option(accept, { nil: undefined }),
      idempotencyKey: fc.option(fc.oneof(text, fc.string({ minLength: 200, maxLength: 400 })), { nil: undefined }),
      paymentSignature: fc.option(garbageProof, { nil: undefined }),
      xPayment: fc.option(garbageProof, { nil: undefined }),
      xPaymentProof: fc.option(garbageProof, { nil: undefined }),
      xAccountId: fc.option(fc.oneof(text, fc.constant('svc_account_00000000000000000000000000000000')), { nil: undefined }),
      xRequestId: fc.option(text, { nil: undefined }),
      cookie: fc.option(
        fc.oneof(
          text,
          text.map((t) => `session=${t}`),
          text.map((t) => `a=1; session=${t}; session=${t}`),
        ),
        { nil: undefined },
      ),
      origin: fc.option(fc.oneof(text, fc.constantFrom('null', 'http://evil.example', 'https://example.com:99999')), { nil: undefined }),
      repeated: fc.option(fc.constantFrom(...HEADER_NAMES), { nil: undefined }),
      huge: fc.option(
        fc.record({ name: fc.constantFrom(...HEADER_NAMES), size: fc.integer({ min: 1_000, max: 12_000 }), fill: fc.constantFrom('A', ' ', '\u00e9', 'x,') }),
        { nil: undefined },
      ),
    },
    { requiredKeys: [] },
  )
  .map((h): HeaderList => {
    const list: HeaderList = [];
    const add = (name: string, value: string | undefined) => value !== undefined && list.push([name, value]);
    add('Authorization', h.authorization?.());
    add('Content-Type', h.contentType);
    add('Accept', h.accept);
    add('Idempotency-Key', h.idempotencyKey);
    add('PAYMENT-SIGNATURE', h.paymentSignature);
    add('X-PAYMENT', h.xPayment);
    add('X-Payment-Proof', h.xPaymentProof);
    add('X-Account-Id', h.xAccountId);
    add('X-Request-Id', h.xRequestId);
    add('Cookie', h.cookie);
    add('Origin', h.origin);
    if (h.repeated !== undefined) {
      const first = list.find(([n]) => n === h.repeated);
      list.push([h.repeated, first?.[1] ?? 'again']);
    }
    if (h.huge !== undefined) {
      const huge = h.huge;
      const value = asBytes(huge.fill.repeat(Math.ceil(huge.size / huge.fill.length))).slice(0, huge.size);
      const at = list.findIndex(([n]) => n === huge.name);
      if (at >= 0) list[at] = [huge.name, value];
      else list.push([huge.name, value]);
    }
    return list;
  });

/** Routes and a plausible body each: only the headers vary. No route here changes the shared devnets. */
function routes(): { method: string; path: string; body?: () => string }[] {
  let n = 0;
  const missingWallet = 'svc_wallet_00000000000000000000000000000000';
  return [
    { method: 'POST', path: '/v1/wallets', body: () => JSON.stringify({ userId: `fuzz-h-${n++}` }) },
    { method: 'GET', path: '/v1/wallets/fuzz-headers-owner' },
    { method: 'GET', path: `/v1/balances/${walletId}` },
    { method: 'GET', path: '/v1/yields?asset=USDC' },
    { method: 'POST', path: '/v1/demo/fund', body: () => JSON.stringify({ walletId: missingWallet }) },
    { method: 'POST', path: '/v1/intents', body: () => JSON.stringify({ walletId: missingWallet, action: 'lend', amount: 1 }) },
    { method: 'GET', path: '/v1/intents/intent_00000000000000000000000000000000' },
    { method: 'GET', path: `/v1/intents?walletId=${walletId}` },
    { method: 'POST', path: '/admin/accounts', body: () => JSON.stringify({ plan: 'free' }) },
    { method: 'GET', path: '/admin/accounts/svc_account_00000000000000000000000000000000/usage' },
  ];
}

function expectRestAnswer(a: Answer, label: string): void {
  expect({ label, status: a.status >= 500 ? a.status : 'not 5xx' }).toEqual({ label, status: 'not 5xx' });
  if (a.status < 400) return;
  expect({ label, contentType: a.contentType.includes('json') }).toEqual({ label, contentType: true });
  const body = JSON.parse(a.text);
  expect({ label, error: typeof body.error, message: typeof body.message, details: typeof body.details }).toEqual({
    label,
    error: 'string',
    message: 'string',
    details: 'object',
  });
}

/** The GraphQL results an answer carries: one JSON document, the `data:` lines of an event stream, or the JSON parts of a multipart answer. */
function graphqlResults(a: Answer): unknown[] {
  if (a.contentType.includes('text/event-stream')) {
    return a.text
      .split('\n')
      .filter((l) => l.startsWith('data:') && l.slice(5).trim() !== '')
      .map((l) => JSON.parse(l.slice(5)));
  }
  if (a.contentType.includes('multipart/mixed')) {
    return a.text
      .split(/\r?\n/)
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  }
  return [JSON.parse(a.text)];
}

function expectGraphQLAnswer(a: Answer, label: string, get: boolean): void {
  expect({ label, status: a.status >= 500 ? a.status : 'not 5xx' }).toEqual({ label, status: 'not 5xx' });
  // GraphiQL: only a GET asking for HTML gets the page
  if (a.contentType.includes('text/html')) {
    expect({ label, get, status: a.status }).toEqual({ label, get: true, status: 200 });
    return;
  }
  let results: { data?: unknown; errors?: { extensions?: { code?: unknown } }[] }[] = [];
  try {
    results = graphqlResults(a) as typeof results;
  } catch {
    // not GraphQL results at all: fails below with the answer in the label
  }
  expect({ label, results: results.length > 0 }).toEqual({ label, results: true });
  for (const r of results) {
    expect({ label, shape: r.data !== undefined || r.errors !== undefined }).toEqual({ label, shape: true });
    for (const e of r.errors ?? []) expect({ label, code: typeof e.extensions?.code }).toEqual({ label, code: 'string' });
  }
  if (a.status >= 400) expect({ label, errors: (results[0] as { errors?: unknown[] }).errors?.length ?? 0 }).not.toEqual({ label, errors: 0 });
}

const describeHeaders = (h: HeaderList): string =>
  h.map(([k, v]) => `${k}: ${v.length > 80 ? `${JSON.stringify(v.slice(0, 40))}…(${v.length})` : JSON.stringify(v)}`).join(' | ');

test('property: every /v1 route and the admin account routes with generated headers answer without a 5xx or a hang, errors in the JSON error object', async () => {
  const list = routes();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...list), headerSet, async (route, headers) => {
      const a = await send(route.method, route.path, headers, route.body?.());
      expectRestAnswer(a, `${route.method} ${route.path} ${describeHeaders(headers)} → ${a.status} ${a.contentType} ${a.text.slice(0, 200)}`);
    }),
    { numRuns: RUNS * list.length, seed: SEED },
  );
});

test('property: /graphql (POST and GET) with generated headers never answers 5xx or hangs; every error has extensions.code, over JSON, SSE or multipart', async () => {
  const query = '{ yields(asset: USDC) { best { apy } } }';
  const mutation = 'mutation($i: CreateWalletInput!) { createWallet(input: $i) { id } }';
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('POST query', 'POST mutation', 'GET query'), headerSet, async (kind, headers) => {
      const body = kind === 'POST query' ? { query } : { query: mutation, variables: { i: { userId: `fuzz-hq-${n++}` } } };
      const a =
        kind === 'GET query'
          ? await send('GET', `/graphql?query=${encodeURIComponent(query)}`, headers)
          : await send('POST', '/graphql', headers, JSON.stringify(body));
      expectGraphQLAnswer(a, `${kind} ${describeHeaders(headers)} → ${a.status} ${a.contentType} ${a.text.slice(0, 200)}`, kind === 'GET query');
    }),
    { numRuns: RUNS * 6, seed: SEED },
  );
});

test('error: an Accept yoga serves none of is answered as JSON (GraphQL over HTTP lets a server disregard Accept), not a bare 406 after the operation ran; APPLICATION/JSON is JSON (media types are case-insensitive), not a bare 415', async () => {
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  const auth: [string, string] = ['Authorization', `Bearer ${acct.key}`];
  const query = '{ yields { best { apy } } }';
  const get = await send('GET', `/graphql?query=${encodeURIComponent(query)}`, [auth, ['Accept', 'application/xml']]);
  const post = await send('POST', '/graphql', [auth, ['Content-Type', 'APPLICATION/JSON']], JSON.stringify({ query }));
  for (const a of [get, post]) {
    expect({ status: a.status, contentType: a.contentType.includes('json') }).toEqual({ status: 200, contentType: true });
    expect(JSON.parse(a.text).data.yields.best.apy).toBeGreaterThan(0);
  }
  // one credit for each answered query, none for anything unanswered
  expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(2);
});

test('behavior: after the header fuzzing the server is healthy: /healthz, a keyed read and a GraphQL query answer 200', async () => {
  expect((await srv.rest('GET', '/healthz')).status).toBe(200);
  expect((await srv.rest('GET', '/v1/yields', { key })).status).toBe(200);
  const g = await srv.gql('{ yields { best { apy } } }', undefined, key);
  expect(g.status).toBe(200);
  expect(g.body.errors).toBeUndefined();
});
