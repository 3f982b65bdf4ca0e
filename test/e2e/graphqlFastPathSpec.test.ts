import { startTestServer, type TestServer } from '../helpers/server';
import { buildSchema } from '../../src/graphql/schema';
import { documentCache } from '../../src/graphql/documentCache';

/**
 * GET /graphql and POSTs asking for application/graphql-response+json are
 * answered by the fast path with yoga's GraphQL-over-HTTP behaviour: GET for
 * queries only (a mutation is 405 with Allow: POST and runs nothing), 400 for
 * parse and validation errors under application/graphql-response+json (200
 * under application/json), the caller and cost checks of every transport.
 * SSE stays with yoga, on the same parse and validation cache.
 */
let srv: TestServer;
let key: string;
let accountId: string;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST! });
  ({ key, accountId } = await srv.admin.createAccount({ plan: 'pro' }));
  await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'spec-get' } });
});
afterAll(() => srv?.stop());

const STRICT = 'application/graphql-response+json';
const get = (query: string, accept: string, extra: Record<string, string> = {}) =>
  fetch(`${srv.url}/graphql?${new URLSearchParams({ query, ...extra })}`, { headers: { Authorization: `Bearer ${key}`, Accept: accept } });
const post = (body: unknown, accept: string) =>
  fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: accept },
    body: JSON.stringify(body),
  });
const answer = async (res: Response) => ({
  status: res.status,
  type: res.headers.get('content-type'),
  allow: res.headers.get('allow'),
  body: (await res.json()) as any,
});

test('behavior: a query over GET and over a graphql-response+json POST answers 200 with data, in the asked type, and is charged once', async () => {
  const q = 'query W($u: String!) { wallet(userId: $u) { userId } }';
  const before = (await srv.admin.usage(accountId)).credits.used;
  for (const res of [await get(q, STRICT, { variables: '{"u":"spec-get"}' }), await post({ query: q, variables: { u: 'spec-get' } }, STRICT)]) {
    const a = await answer(res);
    expect(a).toMatchObject({ status: 200, type: `${STRICT}; charset=utf-8`, body: { data: { wallet: { userId: 'spec-get' } } } });
  }
  const json = await answer(await get(q, 'application/json', { variables: '{"u":"spec-get"}' }));
  expect(json).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
  expect((await srv.admin.usage(accountId)).credits.used).toBe(before + 3);
});

test('error: a mutation over GET is 405 with Allow: POST, whatever the Accept, and nothing runs', async () => {
  for (const accept of [STRICT, 'application/json']) {
    const a = await answer(await get('mutation { createWallet(input: {userId: "spec-over-get"}) { id } }', accept));
    expect(a).toMatchObject({ status: 405, allow: 'POST', body: { errors: [{ extensions: { code: 'BAD_REQUEST' } }] } });
    expect(a.body.errors[0].message).toBe('Can only perform a mutation operation from a POST request.');
  }
  expect((await srv.rest('GET', '/v1/wallets/spec-over-get', { key })).status).toBe(404);
});

test('error: parse and validation errors are 400 under graphql-response+json and 200 under application/json, on GET and POST', async () => {
  for (const [query, code] of [
    ['{ wallet(', 'GRAPHQL_PARSE_FAILED'],
    ['{ nope }', 'GRAPHQL_VALIDATION_FAILED'],
  ] as const) {
    for (const [accept, status] of [
      [STRICT, 400],
      ['application/json', 200],
    ] as const) {
      for (const res of [await get(query, accept), ...(accept === STRICT ? [await post({ query }, accept)] : [])]) {
        const a = await answer(res);
        expect(a.status).toBe(status);
        expect(a.type).toBe(`${accept}; charset=utf-8`);
        expect(a.body.errors[0].extensions.code).toBe(code);
        expect(a.body.data).toBeUndefined();
      }
    }
  }
});

test('error: an operation that cannot be determined is 400 OPERATION_RESOLUTION_FAILURE; variables that do not fit are 400 INVALID_REQUEST', async () => {
  const op = await answer(await get('query A { __typename } query B { __typename }', STRICT));
  expect(op).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } }] } });
  const vars = await answer(await post({ query: 'query($v: ID!) { intent(id: $v) { id } }', variables: { v: [] } }, STRICT));
  expect(vars).toMatchObject({
    status: 400,
    body: { errors: [{ extensions: { code: 'INVALID_REQUEST', details: { issues: [{ path: ['variables', 'v'], expected: 'ID!' }] } } }] },
  });
});

test('error: GET variables that are not JSON are a 400 BAD_REQUEST (yoga answered INTERNAL_ERROR)', async () => {
  for (const accept of [STRICT, 'application/json']) {
    const a = await answer(await get('query($u: String!) { wallet(userId: $u) { id } }', accept, { variables: '{bad' }));
    expect(a).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_REQUEST' } }] } });
  }
});

test('error: the caller and cost checks hold on GET and graphql-response+json (decided once for every transport)', async () => {
  const many = `{ ${Array.from({ length: 21 }, (_, i) => `a${i}: wallet(userId: "spec-get") { id }`).join(' ')} }`;
  for (const res of [await get(many, STRICT), await post({ query: many }, STRICT)]) {
    expect((await answer(res)).body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  }
  for (const res of [await get('{ viewer { __typename } }', STRICT), await post({ query: '{ viewer { __typename } }' }, STRICT)]) {
    expect((await answer(res)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  }
});

test('behavior: malformed requests the fast path does not read are still answered by yoga as before', async () => {
  const missing = await fetch(`${srv.url}/graphql`, { headers: { Authorization: `Bearer ${key}`, Accept: STRICT } });
  expect(missing.status).toBe(400);
  expect(((await missing.json()) as any).errors[0].message).toBe('Must provide query string.');
  const unknown = await answer(await post({ query: '{ __typename }', foo: 1 }, STRICT));
  expect(unknown).toMatchObject({ status: 400, body: { errors: [{ message: 'Unexpected parameter "foo" in the request body.' }] } });
});

test('behavior: a subscription over SSE (yoga) is parsed and validated through the cache the fast path uses', async () => {
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  const wallet = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'spec-sse' } });
  const intent = await srv.rest('POST', '/v1/intents', { key: acct.key, body: { walletId: wallet.body.id, action: 'lend', amount: '1' } });
  const query = `subscription { intentUpdated(id: "${intent.body.id}") { id } } # spec-sse`;
  const cache = documentCache(buildSchema(), false);
  expect(cache.has(query)).toBe(false);
  const sse = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${acct.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
    signal: AbortSignal.timeout(30_000),
  });
  expect(sse.headers.get('content-type')).toMatch(/text\/event-stream/);
  expect(await sse.text()).toContain(intent.body.id);
  expect(cache.has(query)).toBe(true);
});
