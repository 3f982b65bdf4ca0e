import { startTestServer, type TestServer } from '../helpers/server';

/** The /graphql HTTP contract (fast path and yoga) against the real server. */
let srv: TestServer;
let key: string;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
});
afterAll(() => srv?.stop());

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}/graphql`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers }, body });

it('error: a syntax error answers 200 with GRAPHQL_PARSE_FAILED (application/json)', async () => {
  const r = await post(JSON.stringify({ query: '{ wallet(' }));
  expect(r.status).toBe(200);
  expect((await r.json()).errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
});

it('error: an unknown field answers GRAPHQL_VALIDATION_FAILED, and 400 for application/graphql-response+json', async () => {
  const json = await post(JSON.stringify({ query: '{ nope }' }));
  expect((await json.json()).errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  const strict = await post(JSON.stringify({ query: '{ nope }' }), { Accept: 'application/graphql-response+json' });
  expect(strict.status).toBe(400);
});

it('error: a query deeper than the limit (10) is refused with INVALID_REQUEST', async () => {
  const deep = '{ ' + 'wallet(userId: "a") { '.repeat(11) + 'id' + ' }'.repeat(12);
  const r = await (await post(JSON.stringify({ query: deep }))).json();
  const depth = r.errors.find((e: any) => e.extensions.code === 'INVALID_REQUEST');
  expect(depth.message).toBe('Query depth 12 exceeds the limit of 10');
});

it('error: a malformed body is 400 BAD_REQUEST naming the problem', async () => {
  const notJson = await post('{');
  expect(notJson.status).toBe(400);
  const extra = await post(JSON.stringify({ qury: '{ __typename }' }));
  expect(extra.status).toBe(400);
  expect((await extra.json()).errors[0].message).toContain('qury');
});

it('error: a subscription sent as a plain JSON POST is refused with directions', async () => {
  const r = await post(JSON.stringify({ query: 'subscription { intentUpdated(id: "x") { id } }' }));
  expect(r.status).toBe(400);
  expect((await r.json()).errors[0].message).toMatch(/WebSocket|SSE/);
});

it('behavior: parse and validation are cached but variables still apply per request', async () => {
  const q = 'query W($u: String!) { wallet(userId: $u) { userId } }';
  await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'cache-a' } });
  await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'cache-b' } });
  const a = await (await post(JSON.stringify({ query: q, variables: { u: 'cache-a' } }))).json();
  const b = await (await post(JSON.stringify({ query: q, variables: { u: 'cache-b' } }))).json();
  expect(a.data.wallet.userId).toBe('cache-a');
  expect(b.data.wallet.userId).toBe('cache-b');
});
