import { getAddress } from 'viem';
import { CHAIN_NAMES, TEST_CHAINS } from '../../src/domain/chains';
import { generateApiKey } from '../../src/app/accounts/apiKeyFormat';
import { newId } from '../../src/domain/ids';
import type { Wallet } from '../../src/domain/types';
import {
  LEAK,
  expectRateHeaders,
  fitInRateWindow,
  rateHeadersOf,
  seedCorruptAccountKey,
  startTestServer,
  type HttpAnswer,
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

const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** docs/api-guide.md, "Errors": `{error, message, details}` with the given status and code. */
function expectError(a: HttpAnswer, status: number, code: string): void {
  expect({ status: a.status, error: a.body?.error }).toEqual({ status, error: code });
  expect(typeof a.body.message).toBe('string');
  expect(a.body.message.length).toBeGreaterThan(0);
  expect(typeof a.body.details).toBe('object');
  expect(a.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The dotted paths named in an INVALID_REQUEST answer. */
const issuePaths = (a: HttpAnswer): string[] => (a.body.details.issues as { path: string }[]).map((i) => i.path);

const createWallet = (acct: TestAccount, body: unknown, headers?: Record<string, string>) => srv.rest('POST', '/v1/wallets', { key: acct.key, body, headers });

describe('POST /v1/wallets and GET /v1/wallets/:userId', () => {
  test('behavior: creates an ethereum wallet (201) and reads it back by userId (200, same body)', async () => {
    const acct = await srv.admin.createAccount();
    const before = Date.now();
    const created = await createWallet(acct, { userId: 'alice-1', email: 'alice@example.com', metadata: { tier: 'gold', n: { a: [1, 2] } } });
    expect(created.status).toBe(201);
    const w = created.body;
    expect(Object.keys(w).sort()).toEqual(['address', 'chainType', 'chains', 'createdAt', 'email', 'id', 'metadata', 'policyId', 'userId']);
    expect(w.id).toMatch(/^svc_wallet_[0-9a-f]{32}$/);
    expect(w.userId).toBe('alice-1');
    expect(w.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(getAddress(w.address)).toBe(w.address);
    expect(w.address).not.toBe(w.address.toLowerCase());
    expect(w.chainType).toBe('ethereum');
    expect(w.chains).toEqual([...TEST_CHAINS]);
    expect(w.metadata).toEqual({ tier: 'gold', n: { a: [1, 2] } });
    expect(w.email).toBe('alice@example.com');
    expect(new Date(w.createdAt).toISOString()).toBe(w.createdAt);
    expect(Date.parse(w.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(w.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);

    const read = await srv.rest('GET', '/v1/wallets/alice-1', { key: acct.key });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(w);
  });

  test("behavior: a pro account's wallet lists all six chains; metadata defaults to {}", async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const created = await createWallet(acct, { userId: 'pro-user' });
    expect(created.status).toBe(201);
    expect([...created.body.chains].sort()).toEqual([...CHAIN_NAMES].sort());
    expect(created.body.chains).toHaveLength(6);
    expect(created.body.metadata).toEqual({});
    expect(created.body).not.toHaveProperty('email');
  });

  test('behavior: a tron wallet has a base58 T… address and no chains yet', async () => {
    const acct = await srv.admin.createAccount();
    const created = await createWallet(acct, { userId: 'tron-user', chainType: 'tron' });
    expect(created.status).toBe(201);
    expect(created.body.chainType).toBe('tron');
    expect(created.body.address).toMatch(TRON_ADDRESS);
    expect(created.body.chains).toEqual([]);
    const read = await srv.rest('GET', '/v1/wallets/tron-user', { key: acct.key });
    expect(read.body).toEqual(created.body);
  });

  test('behavior: two wallets get distinct ids and addresses; userIds are unique per account, not globally', async () => {
    const a = await srv.admin.createAccount();
    const b = await srv.admin.createAccount();
    const wa = await createWallet(a, { userId: 'same-user' });
    const wb = await createWallet(b, { userId: 'same-user' });
    expect([wa.status, wb.status]).toEqual([201, 201]);
    expect(wa.body.id).not.toBe(wb.body.id);
    expect(wa.body.address).not.toBe(wb.body.address);
    expect((await srv.rest('GET', '/v1/wallets/same-user', { key: b.key })).body.id).toBe(wb.body.id);
  });

  test("error: an unknown userId is 404 WALLET_NOT_FOUND, also for another account's user", async () => {
    const owner = await srv.admin.createAccount();
    const other = await srv.admin.createAccount();
    await createWallet(owner, { userId: 'owned' });
    const unknown = await srv.rest('GET', '/v1/wallets/nobody-here', { key: owner.key });
    expectError(unknown, 404, 'WALLET_NOT_FOUND');
    expect(unknown.body.details).toEqual({ userId: 'nobody-here' });
    expectError(await srv.rest('GET', '/v1/wallets/owned', { key: other.key }), 404, 'WALLET_NOT_FOUND');
  });

  test('error: a second wallet for a userId is 409 WALLET_ALREADY_EXISTS naming the existing wallet', async () => {
    const acct = await srv.admin.createAccount();
    const first = await createWallet(acct, { userId: 'dup-user' });
    const second = await createWallet(acct, { userId: 'dup-user', chainType: 'tron' });
    expectError(second, 409, 'WALLET_ALREADY_EXISTS');
    expect(second.body.details).toEqual({ userId: 'dup-user', walletId: first.body.id });
    expect((await srv.rest('GET', '/v1/wallets/dup-user', { key: acct.key })).body).toEqual(first.body);
  });
});

describe('validation', () => {
  const deep = { l2: { l3: { l4: { l5: { l6: 'too deep' } } } } };
  const cases: [string, unknown, string[]][] = [
    ['userId of 129 characters', { userId: 'u'.repeat(129) }, ['userId']],
    ['userId with a space and a slash', { userId: 'bad id/1' }, ['userId']],
    ['empty userId', { userId: '' }, ['userId']],
    ['missing userId', {}, ['userId']],
    ['userId not a string', { userId: 42 }, ['userId']],
    ['metadata over 8 KiB', { userId: 'u1', metadata: { blob: 'x'.repeat(8 * 1024) } }, ['metadata']],
    ['metadata key starting with $', { userId: 'u1', metadata: { $where: 'x' } }, ['metadata.$where']],
    ['metadata key containing .', { userId: 'u1', metadata: { ok: { 'a.b': 1 } } }, ['metadata.ok.a.b']],
    ['metadata nested deeper than 5', { userId: 'u1', metadata: { l1: deep } }, ['metadata.l1.l2.l3.l4.l5']],
    ['metadata not an object', { userId: 'u1', metadata: ['a'] }, ['metadata']],
    ['bad email', { userId: 'u1', email: 'not-an-email' }, ['email']],
    ['chainType solana', { userId: 'u1', chainType: 'solana' }, ['chainType']],
    ['unknown field', { userId: 'u1', walletName: 'x' }, ['walletName']],
    ['several bad fields at once', { userId: '', email: 'x', chainType: 'solana' }, ['chainType', 'email', 'userId']],
  ];

  test.each(cases)('error: %s is 400 INVALID_REQUEST naming the field', async (_name, body, paths) => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, body);
    expectError(a, 400, 'INVALID_REQUEST');
    expect([...new Set(issuePaths(a))].sort()).toEqual(paths);
    for (const issue of a.body.details.issues) expect(issue.message).toEqual(expect.any(String));
    expect(await srv.admin.usage(acct.accountId)).toMatchObject({ credits: { used: 0 }, wallets: { count: 0 } });
  });

  test('behavior: the limits themselves are accepted (userId of 128, metadata nesting of 5, every allowed character)', async () => {
    const acct = await srv.admin.createAccount();
    const long = await createWallet(acct, { userId: 'u'.repeat(128) });
    expect(long.status).toBe(201);
    const chars = await createWallet(acct, { userId: 'Az09._:@-', metadata: { l1: { l2: { l3: { l4: 'ok' } } } } });
    expect(chars.status).toBe(201);
    expect(chars.body.metadata).toEqual({ l1: { l2: { l3: { l4: 'ok' } } } });
  });

  test('error: a userId path parameter over 128 characters is 400 INVALID_REQUEST', async () => {
    const acct = await srv.admin.createAccount();
    const a = await srv.rest('GET', `/v1/wallets/${'u'.repeat(129)}`, { key: acct.key });
    expectError(a, 400, 'INVALID_REQUEST');
    expect([...new Set(issuePaths(a))]).toEqual(['userId']);
  });

  test('error: a body over 1 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, JSON.stringify({ userId: 'big', metadata: { blob: 'x'.repeat(1024 * 1024) } }));
    expectError(a, 413, 'PAYLOAD_TOO_LARGE');
    expect(a.body.details).toEqual({ limitBytes: 1024 * 1024 });
    expect(a.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test('error: a text/plain body is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, '{"userId":"u1"}', { 'Content-Type': 'text/plain' });
    expectError(a, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(a.body.details).toMatchObject({ contentType: 'text/plain', expected: 'application/json' });
  });

  test('error: malformed JSON is 400 INVALID_REQUEST', async () => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, '{"userId": "u1",');
    expectError(a, 400, 'INVALID_REQUEST');
    expect(a.body.message).toBe('Malformed JSON body');
  });
});

describe('authentication', () => {
  const ok = (a: HttpAnswer) => expect(a.status).toBe(200);

  test('error: a missing key is 401 UNAUTHORIZED (a read that can be paid for offers payment instead: 402)', async () => {
    const a = await srv.rest('GET', '/v1/intents?walletId=anyone');
    expectError(a, 401, 'UNAUTHORIZED');
    expect(a.body.details.reason).toBe('missing');
    expectError(await srv.rest('GET', '/v1/wallets/anyone'), 402, 'PAYMENT_REQUIRED');
    expectError(await srv.rest('POST', '/v1/wallets', { body: { userId: 'x' } }), 401, 'UNAUTHORIZED');
    expectError(await srv.rest('GET', '/v1/wallets/anyone', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'UNAUTHORIZED');
  });

  test('error: a malformed key is 401 UNAUTHORIZED', async () => {
    for (const key of ['svc_sk_123', `svc_sk_${'A'.repeat(64)}`, `sk_${'0'.repeat(64)}`, `svc_sk_${'0'.repeat(65)}`]) {
      const a = await srv.rest('GET', '/v1/wallets/anyone', { key });
      expectError(a, 401, 'UNAUTHORIZED');
      expect(a.body.details.reason).toBe('malformed');
    }
  });

  test('error: a well-formed key nobody issued is 401 UNAUTHORIZED', async () => {
    const a = await srv.rest('GET', '/v1/wallets/anyone', { key: generateApiKey() });
    expectError(a, 401, 'UNAUTHORIZED');
    expect(a.body.details.reason).toBe('unknown');
  });

  test('error: a revoked key is 401 on the very next request, even right after it was used (cached)', async () => {
    const acct = await srv.admin.createAccount();
    const second = await srv.admin.issueKey(acct.accountId);
    await createWallet(acct, { userId: 'rev-user' });
    ok(await srv.rest('GET', '/v1/wallets/rev-user', { key: acct.key }));
    ok(await srv.rest('GET', '/v1/wallets/rev-user', { key: acct.key }));
    await srv.admin.revokeKey(acct.keyId);
    const a = await srv.rest('GET', '/v1/wallets/rev-user', { key: acct.key });
    expectError(a, 401, 'UNAUTHORIZED');
    expect(a.body.details.reason).toBe('revoked');
    expectError(await createWallet(acct, { userId: 'after-revoke' }), 401, 'UNAUTHORIZED');
    // The account's other key keeps working.
    ok(await srv.rest('GET', '/v1/wallets/rev-user', { key: second.key }));
  });

  test('behavior: several keys of one account see the same wallets', async () => {
    const acct = await srv.admin.createAccount();
    const second = await srv.admin.issueKey(acct.accountId, { name: 'ci' });
    expect(second.key).toMatch(/^svc_sk_[0-9a-f]{64}$/);
    const created = await createWallet(acct, { userId: 'shared' });
    expect((await srv.rest('GET', '/v1/wallets/shared', { key: second.key })).body).toEqual(created.body);
  });

  test('error: a read-only key gets 403 FORBIDDEN on POST /wallets but 200 on GET', async () => {
    const acct = await srv.admin.createAccount();
    const reader = await srv.admin.issueKey(acct.accountId, { scopes: ['read'] });
    await createWallet(acct, { userId: 'readable' });
    const denied = await srv.rest('POST', '/v1/wallets', { key: reader.key, body: { userId: 'by-reader' } });
    expectError(denied, 403, 'FORBIDDEN');
    expect(denied.body.details).toMatchObject({ requiredScope: 'write' });
    ok(await srv.rest('GET', '/v1/wallets/readable', { key: reader.key }));
    expectError(await srv.rest('GET', '/v1/wallets/by-reader', { key: reader.key }), 404, 'WALLET_NOT_FOUND');
    // 1 create + 1 read; the 403 and the 404 cost nothing.
    expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(2);
  });

  test('error: a write-only key gets 403 FORBIDDEN on GET', async () => {
    const acct = await srv.admin.createAccount();
    const writer = await srv.admin.issueKey(acct.accountId, { scopes: ['write'] });
    expect((await srv.rest('POST', '/v1/wallets', { key: writer.key, body: { userId: 'w-only' } })).status).toBe(201);
    expectError(await srv.rest('GET', '/v1/wallets/w-only', { key: writer.key }), 403, 'FORBIDDEN');
  });
});

describe('routing and common headers', () => {
  test('error: an unknown route is a JSON 404 NOT_FOUND (under /v1 and outside it)', async () => {
    const acct = await srv.admin.createAccount();
    expectError(await srv.rest('GET', '/v1/no-such-thing', { key: acct.key }), 404, 'NOT_FOUND');
    expectError(await srv.rest('GET', '/no-such-thing'), 404, 'NOT_FOUND');
  });

  test('error: a known path with the wrong method is 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    const acct = await srv.admin.createAccount();
    const del = await srv.rest('DELETE', '/v1/wallets/someone', { key: acct.key });
    expectError(del, 405, 'METHOD_NOT_ALLOWED');
    expect(del.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD']);
    const get = await srv.rest('GET', '/v1/wallets', { key: acct.key });
    expectError(get, 405, 'METHOD_NOT_ALLOWED');
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.body.details.allowed).toEqual(['POST']);
  });

  test('behavior: every answer carries X-Request-Id; a safe caller id is echoed, an unsafe one replaced', async () => {
    const acct = await srv.admin.createAccount();
    const answers = [
      await createWallet(acct, { userId: 'rid' }),
      await srv.rest('GET', '/v1/wallets/rid', { key: acct.key }),
      await srv.rest('GET', '/v1/wallets/none', { key: acct.key }),
      await createWallet(acct, { userId: '' }),
      await srv.rest('GET', '/v1/wallets/rid'),
      await srv.rest('DELETE', '/v1/wallets/rid', { key: acct.key }),
      await srv.rest('GET', '/v1/nothing', { key: acct.key }),
      await createWallet(acct, 'x', { 'Content-Type': 'text/plain' }),
      await srv.rest('GET', '/healthz'),
    ];
    for (const a of answers) expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(answers.map((a) => a.headers.get('x-request-id'))).size).toBe(answers.length);
    const echoed = await srv.rest('GET', '/v1/wallets/rid', { key: acct.key, headers: { 'X-Request-Id': 'client-trace:42' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-trace:42');
    const unsafe = await srv.rest('GET', '/v1/wallets/rid', { key: acct.key, headers: { 'X-Request-Id': 'bad id <script>' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req_/);
  });

  test('error: a 500 is masked: INTERNAL_ERROR, no stack or internals, the request id in details', async () => {
    const key = await seedCorruptAccountKey(srv);
    const a = await srv.rest('GET', '/v1/wallets/someone', { key });
    expect(a.status).toBe(500);
    expect(a.body).toEqual({ error: 'INTERNAL_ERROR', message: 'An internal error occurred', details: { requestId: a.headers.get('x-request-id') } });
    expect(a.text).not.toMatch(LEAK);
  });
});

describe('rate limit', () => {
  test("error: a free account's 101st request in a minute is 429 RATE_LIMIT_EXCEEDED with Retry-After and the rate headers", async () => {
    await fitInRateWindow(10_000);
    const acct = await srv.admin.createAccount();
    const seen: number[] = [];
    for (let i = 0; i < 100; i++) {
      // Unknown users: 404s, which cost no credits, so only the rate limit is in play.
      const a = await srv.rest('GET', `/v1/wallets/u${i}`, { key: acct.key });
      expect(a.status).toBe(404);
      seen.push(rateHeadersOf(a.headers).remaining);
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    const limited = await srv.rest('GET', '/v1/wallets/u100', { key: acct.key });
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    const nowS = Date.now() / 1000;
    const h = rateHeadersOf(limited.headers);
    expect(h.limit).toBe(100);
    expect(h.remaining).toBe(0);
    expect(h.reset).toBeGreaterThan(nowS);
    expect(h.reset).toBeLessThanOrEqual(Math.ceil(nowS) + 60);
    expect(h.reset % 60).toBe(0);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.details).toMatchObject({ limit: 100, resetAt: h.reset, retryAfterSeconds: retryAfter });
    // The limit is per account: a second key of the same account is limited too.
    const second = await srv.admin.issueKey(acct.accountId);
    expectError(await srv.rest('GET', '/v1/wallets/u101', { key: second.key }), 429, 'RATE_LIMIT_EXCEEDED');
    // Another account is not.
    const other = await srv.admin.createAccount();
    expect((await srv.rest('GET', '/v1/wallets/u0', { key: other.key })).status).toBe(404);
  });

  test('behavior: every answer of a known account carries the three X-RateLimit-* headers (2xx, 4xx, 405, revoked 401)', async () => {
    const acct = await srv.admin.createAccount();
    const spare = await srv.admin.issueKey(acct.accountId);
    const answers: [string, HttpAnswer][] = [
      ['201', await createWallet(acct, { userId: 'hdr' })],
      ['200', await srv.rest('GET', '/v1/wallets/hdr', { key: acct.key })],
      ['404 wallet', await srv.rest('GET', '/v1/wallets/none', { key: acct.key })],
      ['404 route', await srv.rest('GET', '/v1/nothing', { key: acct.key })],
      ['405', await srv.rest('DELETE', '/v1/wallets/hdr', { key: acct.key })],
      ['409', await createWallet(acct, { userId: 'hdr' })],
      ['400', await createWallet(acct, { userId: '' })],
    ];
    await srv.admin.revokeKey(spare.id);
    answers.push(['401 revoked', await srv.rest('GET', '/v1/wallets/hdr', { key: spare.key })]);
    for (const [label, a] of answers) {
      expect({ label, present: a.headers.has('x-ratelimit-limit') && a.headers.has('x-ratelimit-remaining') && a.headers.has('x-ratelimit-reset') }).toEqual({
        label,
        present: true,
      });
      expectRateHeaders(a.headers, 100);
    }
    expect(answers.map(([, a]) => a.status)).toEqual([201, 200, 404, 404, 405, 409, 400, 401]);
  });

  // Known bug: restApp.ts runs jsonBody() before admission(), so answers to bodies rejected while
  // parsing (415, 413, malformed JSON) skip authentication and carry no X-RateLimit-* headers.
  test('behavior: body errors (415, malformed JSON) of a known account carry the rate headers too', async () => {
    const acct = await srv.admin.createAccount();
    for (const a of [await createWallet(acct, 'x', { 'Content-Type': 'text/plain' }), await createWallet(acct, '{')]) {
      expectRateHeaders(a.headers, 100);
    }
  });
});

describe('credits and plan limits', () => {
  test('behavior: credits are charged on 2xx answers only', async () => {
    const acct = await srv.admin.createAccount();
    const used = async () => (await srv.admin.usage(acct.accountId)).credits.used;
    expect(await used()).toBe(0);
    expect((await srv.rest('GET', '/v1/wallets/nobody', { key: acct.key })).status).toBe(404);
    expect((await createWallet(acct, { userId: '' })).status).toBe(400);
    expect((await srv.rest('GET', '/v1/nothing', { key: acct.key })).status).toBe(404);
    expect(await used()).toBe(0);
    expect((await createWallet(acct, { userId: 'paying' })).status).toBe(201);
    expect(await used()).toBe(1);
    expect((await srv.rest('GET', '/v1/wallets/paying', { key: acct.key })).status).toBe(200);
    expect(await used()).toBe(2);
    expect((await createWallet(acct, { userId: 'paying' })).status).toBe(409);
    expect(await used()).toBe(2);
  });

  test('error: after 100 credits in the month the next request is 403 CREDITS_EXHAUSTED with {limit, used, resetsAt}', async () => {
    // 1000 requests/minute so the free plan's rate limit (also 100) does not answer first.
    const acct = await srv.admin.createAccount({ requestsPerMinute: 1000 });
    expect((await createWallet(acct, { userId: 'spender' })).status).toBe(201);
    for (let batch = 0; batch < 9; batch++) {
      const answers = await Promise.all(Array.from({ length: 11 }, () => srv.rest('GET', '/v1/wallets/spender', { key: acct.key })));
      expect(answers.map((a) => a.status)).toEqual(Array(11).fill(200));
    }
    const usage = await srv.admin.usage(acct.accountId);
    expect(usage.credits).toMatchObject({ used: 100, limit: 100 });
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    const exhausted = await srv.rest('GET', '/v1/wallets/spender', { key: acct.key });
    expectError(exhausted, 403, 'CREDITS_EXHAUSTED');
    expect(exhausted.body.details).toEqual({ limit: 100, used: 100, resetsAt: nextMonth });
    expectError(await createWallet(acct, { userId: 'one-more' }), 403, 'CREDITS_EXHAUSTED');
    expect((await srv.admin.usage(acct.accountId)).credits.used).toBe(100);
    expect(usage.credits.resetsAt).toBe(nextMonth);
  });

  test('error: the 101st wallet of a free account is 403 WALLET_LIMIT_EXCEEDED and costs nothing', async () => {
    // Free accounts have 100 wallets and 100 credits a month, so 100 wallets take a month's credits:
    // 99 wallets are seeded in the store as if created in earlier months, the 100th over HTTP.
    const acct = await srv.admin.createAccount();
    const { store } = srv.service.deps;
    for (let i = 0; i < 99; i++) {
      const id = newId('wallet');
      const address = getAddress(`0x${id.slice(-32).padStart(40, '0')}`);
      const w: Wallet = {
        id,
        accountId: acct.accountId,
        userId: `seeded-${i}`,
        address,
        evmAddress: address,
        chainType: 'ethereum',
        chains: [...TEST_CHAINS],
        email: null,
        metadata: {},
        createdAt: new Date().toISOString(),
      };
      await store.wallets.insert(w);
    }
    expect((await createWallet(acct, { userId: 'hundredth' })).status).toBe(201);
    const over = await createWallet(acct, { userId: 'hundred-first' });
    expectError(over, 403, 'WALLET_LIMIT_EXCEEDED');
    expect(over.body.details).toEqual({ plan: 'free', limit: 100 });
    expectError(await srv.rest('GET', '/v1/wallets/hundred-first', { key: acct.key }), 404, 'WALLET_NOT_FOUND');
    expect(await srv.admin.usage(acct.accountId)).toMatchObject({ credits: { used: 1 }, wallets: { count: 100, limit: 100 } });
    // An existing userId is still answered 409, not 403.
    expectError(await createWallet(acct, { userId: 'hundredth' }), 409, 'WALLET_ALREADY_EXISTS');
  });
});

describe('Idempotency-Key', () => {
  test('behavior: the same key and body replays the first 201 (same wallet) with Idempotent-Replayed: true', async () => {
    const acct = await srv.admin.createAccount();
    const headers = { 'Idempotency-Key': 'create-alice-1' };
    const first = await createWallet(acct, { userId: 'idem-user', metadata: { a: 1, b: 2 } }, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same body with keys in another order is the same request.
    const replay = await createWallet(acct, { metadata: { b: 2, a: 1 }, userId: 'idem-user' }, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await srv.admin.usage(acct.accountId)).wallets.count).toBe(1);
  });

  test('error: the same key with another body is 409 IDEMPOTENCY_CONFLICT', async () => {
    const acct = await srv.admin.createAccount();
    const headers = { 'Idempotency-Key': 'create-bob' };
    expect((await createWallet(acct, { userId: 'idem-bob' }, headers)).status).toBe(201);
    const conflict = await createWallet(acct, { userId: 'idem-carol' }, headers);
    expectError(conflict, 409, 'IDEMPOTENCY_CONFLICT');
    expect(conflict.body.details).toEqual({ idempotencyKey: 'create-bob' });
    expectError(await srv.rest('GET', '/v1/wallets/idem-carol', { key: acct.key }), 404, 'WALLET_NOT_FOUND');
  });

  test('behavior: without the header a repeated create is a 409 WALLET_ALREADY_EXISTS, not a replay', async () => {
    const acct = await srv.admin.createAccount();
    expect((await createWallet(acct, { userId: 'no-idem' })).status).toBe(201);
    const again = await createWallet(acct, { userId: 'no-idem' });
    expectError(again, 409, 'WALLET_ALREADY_EXISTS');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  test('behavior: a failed attempt frees the key; keys are scoped per account', async () => {
    const acct = await srv.admin.createAccount();
    const other = await srv.admin.createAccount();
    const headers = { 'Idempotency-Key': 'shared-key' };
    expectError(await createWallet(acct, { userId: '' }, headers), 400, 'INVALID_REQUEST');
    const mine = await createWallet(acct, { userId: 'scoped' }, headers);
    expect(mine.status).toBe(201);
    const theirs = await createWallet(other, { userId: 'scoped' }, headers);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  test('error: an Idempotency-Key with a non-printable character or over 255 characters is 400', async () => {
    const acct = await srv.admin.createAccount();
    const a = await createWallet(acct, { userId: 'k' }, { 'Idempotency-Key': 'x'.repeat(256) });
    expectError(a, 400, 'INVALID_REQUEST');
    expect(issuePaths(a)).toEqual(['Idempotency-Key']);
  });
});

describe('API documents', () => {
  test('behavior: /v1/openapi.json and /docs (Swagger UI, served locally) are public', async () => {
    const doc = await srv.rest('GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toContain('/wallets');
    const page = await srv.rest('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    // The page loads its renderer and its own start-up script from this service, never from a CDN.
    const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/init.js']);
    for (const src of [...scripts, '/docs/assets/swagger-ui.css']) {
      const asset = await srv.rest('GET', src!);
      expect(asset.status).toBe(200);
    }
    expect((await srv.rest('GET', '/docs/assets/init.js')).text).toContain("url: '/v1/openapi.json'");
    // Only the listed assets: the rest of the package (and any path trick) is the JSON 404.
    for (const other of ['/docs/assets/package.json', '/docs/assets/..%2Fpackage.json', '/docs/assets/index.html']) {
      const r = await srv.rest('GET', other);
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('NOT_FOUND');
    }
  });
});
