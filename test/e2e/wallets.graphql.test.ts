import { getAddress } from 'viem';
import {
  LEAK,
  expectRateHeaders,
  seedCorruptAccountKey,
  startTestServer,
  type HttpAnswer,
  type Json,
  type TestAccount,
  type TestServer,
} from '../helpers/server';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer();
});

afterAll(async () => {
  await srv?.stop();
});

const WALLET_FIELDS = 'id userId address chainType chains email metadata createdAt';
const CREATE = `mutation Create($input: CreateWalletInput!) { createWallet(input: $input) { ${WALLET_FIELDS} } }`;
const GET = `query Get($userId: String!) { wallet(userId: $userId) { ${WALLET_FIELDS} } }`;

const createWallet = (acct: TestAccount, input: Record<string, unknown>, headers?: Record<string, string>) => srv.gql(CREATE, { input }, acct.key, headers);
const getWallet = (acct: TestAccount, userId: string) => srv.gql(GET, { userId }, acct.key);

/** The single error of a GraphQL answer, asserting its code (the REST `error` code). */
function gqlError(a: HttpAnswer, code: string): Json {
  expect(a.body.errors).toHaveLength(1);
  const e = a.body.errors[0];
  expect(e.extensions.code).toBe(code);
  expect(typeof e.message).toBe('string');
  return e;
}

describe('GraphQL wallets', () => {
  test('behavior: createWallet then wallet(userId) return the same wallet', async () => {
    const acct = await srv.admin.createAccount();
    const created = await createWallet(acct, { userId: 'gql-alice', email: 'alice@example.com', metadata: { tier: 'gold', n: [1, { a: true }] } });
    expect(created.status).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const w = created.body.data.createWallet;
    expect(w.id).toMatch(/^svc_wallet_[0-9a-f]{32}$/);
    expect(w.userId).toBe('gql-alice');
    expect(getAddress(w.address)).toBe(w.address);
    expect(w.chainType).toBe('ETHEREUM');
    expect(w.chains).toEqual(['ETHEREUM_SEPOLIA', 'ARBITRUM_SEPOLIA', 'BASE_SEPOLIA']);
    expect(w.email).toBe('alice@example.com');
    expect(w.metadata).toEqual({ tier: 'gold', n: [1, { a: true }] });
    expect(new Date(w.createdAt).toISOString()).toBe(w.createdAt);

    const read = await getWallet(acct, 'gql-alice');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: { wallet: w } });
  });

  test('behavior: GraphQL and REST show the same wallet (same id, address, metadata)', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const w = (await createWallet(acct, { userId: 'both-doors', metadata: { k: 'v' } })).body.data.createWallet;
    expect(w.chains).toHaveLength(6);
    const rest = await srv.rest('GET', '/v1/wallets/both-doors', { key: acct.key });
    expect(rest.status).toBe(200);
    expect({ id: rest.body.id, address: rest.body.address, metadata: rest.body.metadata, createdAt: rest.body.createdAt }).toEqual({
      id: w.id,
      address: w.address,
      metadata: w.metadata,
      createdAt: w.createdAt,
    });
  });

  test('behavior: a tron wallet over GraphQL has a T… address and no chains', async () => {
    const acct = await srv.admin.createAccount();
    const w = (await createWallet(acct, { userId: 'gql-tron', chainType: 'TRON' })).body.data.createWallet;
    expect(w.chainType).toBe('TRON');
    expect(w.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(w.chains).toEqual([]);
  });

  test('error: a missing key is HTTP 401 with extensions.code UNAUTHORIZED', async () => {
    const a = await srv.gql(GET, { userId: 'x' });
    expect(a.status).toBe(401);
    expect(a.body.data).toBeUndefined();
    expect(gqlError(a, 'UNAUTHORIZED').extensions.details).toEqual({ reason: 'missing' });
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test('error: malformed and revoked keys are HTTP 401 UNAUTHORIZED; revocation is immediate', async () => {
    const acct = await srv.admin.createAccount();
    expect(gqlError(await srv.gql(GET, { userId: 'x' }, 'svc_sk_nope'), 'UNAUTHORIZED').extensions.details).toEqual({ reason: 'malformed' });
    expect((await getWallet(acct, 'x')).status).toBe(200);
    await srv.admin.revokeKey(acct.keyId);
    const revoked = await getWallet(acct, 'x');
    expect(revoked.status).toBe(401);
    expect(gqlError(revoked, 'UNAUTHORIZED').extensions.details).toEqual({ reason: 'revoked' });
    expectRateHeaders(revoked.headers, 100);
  });

  test('error: invalid input is INVALID_REQUEST with details.issues naming each bad field', async () => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, { userId: 'bad id', email: 'nope', metadata: { $set: 1, deep: { a: { b: { c: { d: { e: 1 } } } } } } });
    const e = gqlError(a, 'INVALID_REQUEST');
    expect(a.body.data).toEqual({ createWallet: null });
    const paths = (e.extensions.details.issues as { path: string }[]).map((i) => i.path).sort();
    expect(paths).toEqual(['email', 'metadata.$set', 'metadata.deep.a.b.c.d', 'userId']);
    const badArg = await getWallet(acct, 'u'.repeat(129));
    expect([...new Set((gqlError(badArg, 'INVALID_REQUEST').extensions.details.issues as { path: string }[]).map((i) => i.path))]).toEqual(['userId']);
  });

  test('error: an unknown chainType or field is rejected by the schema itself', async () => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, { userId: 'x', chainType: 'SOLANA' });
    expect(a.body.errors?.length).toBeGreaterThan(0);
    expect(a.body.data).toBeUndefined();
    const b = await createWallet(acct, { userId: 'x', walletName: 'y' });
    expect(b.body.errors?.length).toBeGreaterThan(0);
    expect((await srv.admin.usage(acct.accountId)).wallets.count).toBe(0);
  });

  test('error: a second wallet for a userId is WALLET_ALREADY_EXISTS with details.walletId', async () => {
    const acct = await srv.admin.createAccount();
    const first = (await createWallet(acct, { userId: 'gql-dup' })).body.data.createWallet;
    const e = gqlError(await createWallet(acct, { userId: 'gql-dup' }), 'WALLET_ALREADY_EXISTS');
    expect(e.extensions.details).toEqual({ userId: 'gql-dup', walletId: first.id });
    expect(e.extensions.status).toBe(409);
  });

  test('error: an unknown userId is WALLET_NOT_FOUND', async () => {
    const acct = await srv.admin.createAccount();
    const a = await getWallet(acct, 'nobody');
    expect(a.body.data).toEqual({ wallet: null });
    const e = gqlError(a, 'WALLET_NOT_FOUND');
    expect(e.extensions.details).toEqual({ userId: 'nobody' });
    expect(e.path).toEqual(['wallet']);
  });

  test('error: a read-only key gets FORBIDDEN on createWallet but reads wallets', async () => {
    const acct = await srv.admin.createAccount();
    const reader = await srv.admin.issueKey(acct.accountId, { scopes: ['read'] });
    await createWallet(acct, { userId: 'gql-read' });
    const denied = await srv.gql(CREATE, { input: { userId: 'by-reader' } }, reader.key);
    expect(gqlError(denied, 'FORBIDDEN').extensions.details).toMatchObject({ requiredScope: 'write' });
    const read = await srv.gql(GET, { userId: 'gql-read' }, reader.key);
    expect(read.body.data.wallet.userId).toBe('gql-read');
  });

  test('behavior: every GraphQL answer of a known account carries the X-RateLimit-* headers and X-Request-Id', async () => {
    const acct = await srv.admin.createAccount();
    const answers = [
      await createWallet(acct, { userId: 'gql-hdr' }),
      await getWallet(acct, 'gql-hdr'),
      await getWallet(acct, 'none'),
      await createWallet(acct, { userId: '' }),
    ];
    for (const a of answers) {
      expectRateHeaders(a.headers, 100);
      expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    }
    // REST and GraphQL count in the same per-account window.
    const rest = await srv.rest('GET', '/v1/wallets/gql-hdr', { key: acct.key });
    const last = Number(answers[answers.length - 1]!.headers.get('x-ratelimit-remaining'));
    const now = Number(rest.headers.get('x-ratelimit-remaining'));
    expect(now === last - 1 || now === 99).toBe(true);
  });

  test('behavior: credits are charged as over REST: 1 per successful field, nothing for errors', async () => {
    const acct = await srv.admin.createAccount();
    const used = async () => (await srv.admin.usage(acct.accountId)).credits.used;
    await getWallet(acct, 'nobody');
    await createWallet(acct, { userId: '' });
    expect(await used()).toBe(0);
    await createWallet(acct, { userId: 'gql-credits' });
    expect(await used()).toBe(1);
    await getWallet(acct, 'gql-credits');
    expect(await used()).toBe(2);
    await createWallet(acct, { userId: 'gql-credits' });
    expect(await used()).toBe(2);
    // Two fields in one document are two operations.
    const both = await srv.gql(`{ a: wallet(userId: "gql-credits") { id } b: wallet(userId: "gql-credits") { id } }`, {}, acct.key);
    expect(both.body.data.a.id).toBe(both.body.data.b.id);
    expect(await used()).toBe(4);
  });

  test("error: CREDITS_EXHAUSTED over GraphQL once the month's 100 credits are used", async () => {
    const acct = await srv.admin.createAccount({ requestsPerMinute: 1000 });
    await createWallet(acct, { userId: 'gql-spender' });
    // 99 reads in operations of 10 and 9 (the free plan's largest operation costs 10 credits)
    for (const size of [10, 10, 10, 10, 10, 10, 10, 10, 10, 9]) {
      const aliases = Array.from({ length: size }, (_, i) => `w${i}: wallet(userId: "gql-spender") { id }`).join(' ');
      const bulk = await srv.gql(`{ ${aliases} }`, {}, acct.key);
      expect(bulk.body.errors).toBeUndefined();
    }
    expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(100);
    const e = gqlError(await getWallet(acct, 'gql-spender'), 'CREDITS_EXHAUSTED');
    expect(e.extensions.details).toMatchObject({ limit: 100, used: 100 });
    expect(e.extensions.status).toBe(403);
  });

  test('behavior: the Idempotency-Key header replays createWallet; another input under the same key is IDEMPOTENCY_CONFLICT', async () => {
    const acct = await srv.admin.createAccount();
    const headers = { 'Idempotency-Key': 'gql-create-1' };
    const first = await createWallet(acct, { userId: 'gql-idem', metadata: { a: 1 } }, headers);
    const replay = await createWallet(acct, { metadata: { a: 1 }, userId: 'gql-idem' }, headers);
    expect(replay.body.errors).toBeUndefined();
    expect(replay.body.data.createWallet).toEqual(first.body.data.createWallet);
    expect((await srv.admin.usage(acct.accountId)).wallets.count).toBe(1);
    const conflict = await createWallet(acct, { userId: 'gql-other' }, headers);
    expect(gqlError(conflict, 'IDEMPOTENCY_CONFLICT').extensions.details).toEqual({ idempotencyKey: 'gql-create-1' });
    // Without the header the same input is a duplicate, not a replay.
    gqlError(await createWallet(acct, { userId: 'gql-idem', metadata: { a: 1 } }), 'WALLET_ALREADY_EXISTS');
  });

  test('behavior: an Idempotency-Key used over REST replays over GraphQL (one key space per account)', async () => {
    const acct = await srv.admin.createAccount();
    const headers = { 'Idempotency-Key': 'cross-door' };
    const rest = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'cross' }, headers });
    expect(rest.status).toBe(201);
    const gql = await createWallet(acct, { userId: 'cross' }, headers);
    expect(gql.body.data.createWallet.id).toBe(rest.body.id);
  });

  test('error: a 500 is masked: HTTP 500, INTERNAL_ERROR, the request id in details, no internals', async () => {
    const key = await seedCorruptAccountKey(srv);
    const a = await srv.gql(GET, { userId: 'someone' }, key);
    expect(a.status).toBe(500);
    const e = gqlError(a, 'INTERNAL_ERROR');
    expect(e.message).toBe('An internal error occurred');
    expect(e.extensions.details).toEqual({ requestId: a.headers.get('x-request-id') });
    expect(a.text).not.toMatch(LEAK);
  });
});

describe('walletById', () => {
  test('behavior: reads a wallet by id; another account sees WALLET_NOT_FOUND', async () => {
    const a = await srv.admin.createAccount();
    const b = await srv.admin.createAccount();
    const created = await srv.rest('POST', '/v1/wallets', { key: a.key, body: { userId: 'by-id' } });
    const q = 'query($id: ID!) { walletById(id: $id) { id userId address } }';
    const mine = await srv.gql(q, { id: created.body.id }, a.key);
    expect(mine.body.data.walletById).toEqual({ id: created.body.id, userId: 'by-id', address: created.body.address });
    const theirs = await srv.gql(q, { id: created.body.id }, b.key);
    expect(theirs.body.errors[0].extensions.code).toBe('WALLET_NOT_FOUND');
  });
});
