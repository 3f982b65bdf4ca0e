import fc from 'fast-check';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Variables that do not fit their declared types are the client's mistake,
 * on every path: 400-class INVALID_REQUEST naming the variable and its type
 * (HTTP 200 under application/json, 400 under
 * application/graphql-response+json, as GraphQL over HTTP says), never an
 * INTERNAL_ERROR; and a body type /graphql does not read is 415 with the
 * error object, not an empty answer.
 */
let srv: TestServer;
let key: string;
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

beforeAll(async () => {
  srv = await startTestServer();
  key = (await srv.admin.createAccount({ plan: 'enterprise', requestsPerMinute: 100_000 })).key;
});
afterAll(async () => {
  await srv?.stop();
});

async function post(body: unknown, accept: string) {
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { errors?: { extensions: { code: string; details?: { issues?: { path: string[]; expected: string }[] } } }[] },
  };
}

/** Operations whose variables have one declared type each, and values of every other JSON type. */
const OPERATIONS: { query: string; name: string; type: string; wrong: fc.Arbitrary<unknown> }[] = [
  {
    query: 'query($v: ID!) { intent(id: $v) { id } }',
    name: 'v',
    type: 'ID!',
    wrong: fc.oneof(
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
      fc.boolean(),
      fc.double({ noInteger: true, noNaN: true }),
    ),
  },
  {
    query: 'query($v: Int) { intents(walletId: "svc_wallet_x", first: $v) { pageInfo { hasNextPage } } }',
    name: 'v',
    type: 'Int',
    wrong: fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !/^-?\d+$/.test(s)),
      fc.double({ noInteger: true, noNaN: true }),
      fc.boolean(),
      fc.constant(2 ** 40),
      fc.array(fc.integer(), { maxLength: 2 }),
    ),
  },
  {
    query: 'query($v: TokenAsset) { yields(asset: $v) { best { apy } } }',
    name: 'v',
    type: 'TokenAsset',
    wrong: fc.oneof(
      fc.string({ maxLength: 8 }).filter((s) => !['USDC', 'USDT', 'DAI', 'WETH'].includes(s)),
      fc.integer(),
      fc.boolean(),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.boolean(), { maxKeys: 2 }),
    ),
  },
  {
    query: 'mutation($v: CreateWalletInput!) { createWallet(input: $v) { id } }',
    name: 'v',
    type: 'CreateWalletInput!',
    wrong: fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.record({ userId: fc.oneof(fc.integer(), fc.boolean(), fc.constant([])) }),
    ),
  },
];

for (const accept of ['application/json', 'application/graphql-response+json']) {
  test(`error: ${accept}: variables of the wrong type answer INVALID_REQUEST naming the variable and its type, never INTERNAL_ERROR`, async () => {
    for (const op of OPERATIONS) {
      await fc.assert(
        fc.asyncProperty(op.wrong, async (value) => {
          const r = await post({ query: op.query, variables: { [op.name]: value } }, accept);
          expect(r.status).toBe(accept === 'application/json' ? 200 : 400);
          const e = r.body.errors?.[0];
          expect(e?.extensions.code).toBe('INVALID_REQUEST');
          expect(e?.extensions.details?.issues?.[0]).toMatchObject({ path: ['variables', op.name], expected: op.type });
        }),
        { numRuns: RUNS, seed: 42 },
      );
    }
  }, 120_000);
}

test('error: a GET through yoga with a wrong-typed variable is INVALID_REQUEST too', async () => {
  const q = encodeURIComponent('query($v: ID!) { intent(id: $v) { id } }');
  const res = await fetch(`${srv.url}/graphql?query=${q}&variables=${encodeURIComponent('{"v":[]}')}`, {
    headers: { authorization: `Bearer ${key}`, accept: 'application/graphql-response+json' },
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('INVALID_REQUEST');
});

test('error: a body type /graphql does not read is 415 with the error object', async () => {
  for (const type of ['text/plain', 'application/xml', 'image/png']) {
    const res = await fetch(`${srv.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body: '{"query":"{ __typename }"}',
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { errors: { extensions: { code: string; details: { contentType: string } } }[] };
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', details: { contentType: type } });
  }
});
