import { fitInRateWindow, rateHeadersOf, startTestServer, type HttpAnswer, type TestServer } from '../helpers/server';
import { creditMonth } from '../../src/app/accounts/credits';

/**
 * A key holder sees its account's credits. GET /v1/usage
 * and GraphQL `usage` answer the plan, credits, the current rate window and
 * the wallets, cost 0 credits (never counting against what they report) but
 * count in the rate window; X-Credits-Remaining is on every /v1 answer to an
 * admitted key, computed from what the request already saw.
 */

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv?.stop();
});

const creditsLeft = (a: HttpAnswer) => a.headers.get('x-credits-remaining');
const used = async (accountId: string) => (await srv.admin.usage(accountId)).credits.used;
const USAGE_QUERY = '{ usage { plan credits { used limit resetsAt } rateWindow { limit used remaining resetsAt } wallets { count limit } } }';
/** Reads of the month's credit counter (other counters, e.g. wallet slots, are not the header's business). */
const creditReads = (spy: jest.SpyInstance) => spy.mock.calls.filter(([key]) => String(key).startsWith('credits:')).length;

describe('GET /v1/usage', () => {
  test('behavior: plan, credits, rate window and wallets after a few charged calls; the usage call itself charges nothing', async () => {
    const acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
    const { key } = acct;
    expect((await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'ada' } })).status).toBe(201);
    expect((await srv.rest('GET', '/v1/wallets/ada', { key })).status).toBe(200);
    expect((await srv.rest('GET', '/v1/yields', { key })).status).toBe(200);
    expect((await srv.rest('GET', '/v1/wallets/nobody', { key })).status).toBe(404); // refunded: not charged

    await fitInRateWindow(5_000); // the usage calls below in one rate window
    const u = await srv.rest('GET', '/v1/usage', { key });
    expect(u.status).toBe(200);
    expect(u.body).toEqual({
      plan: 'free',
      credits: { used: 3, limit: 100, resetsAt: creditMonth(new Date()).resetsAt.toISOString() },
      rateWindow: { limit: 1000, used: expect.any(Number), remaining: expect.any(Number), resetsAt: expect.any(String) },
      wallets: { count: 1, limit: 100 },
    });
    // the rate window is the one the X-RateLimit-* headers of the same answer show (this request counted)
    const rate = rateHeadersOf(u.headers);
    expect(u.body.rateWindow).toEqual({
      limit: rate.limit,
      used: rate.limit - rate.remaining,
      remaining: rate.remaining,
      resetsAt: new Date(rate.reset * 1000).toISOString(),
    });
    expect(creditsLeft(u)).toBe('97');

    // asked again: nothing charged, one more request in the window
    const again = await srv.rest('GET', '/v1/usage', { key });
    expect(again.body.credits.used).toBe(3);
    expect(again.body.rateWindow.remaining).toBe(u.body.rateWindow.remaining - 1);
    expect(creditsLeft(again)).toBe('97');
    expect(await used(acct.accountId)).toBe(3);
  });

  test('behavior: an account whose credits are spent still reads its usage (0 left), and an unlimited plan says so', async () => {
    const broke = await srv.admin.createAccount({ plan: 'free' });
    const { month, resetsAt } = creditMonth(new Date());
    await srv.service.deps.store.usage.increment(`credits:${broke.accountId}:${month}`, 100, new Date(resetsAt.getTime() + 31 * 86_400_000));
    const refused = await srv.rest('GET', '/v1/yields', { key: broke.key });
    expect([refused.status, refused.body.error, creditsLeft(refused)]).toEqual([403, 'CREDITS_EXHAUSTED', '0']);
    const u = await srv.rest('GET', '/v1/usage', { key: broke.key });
    expect([u.status, u.body.credits, creditsLeft(u)]).toEqual([200, { used: 100, limit: 100, resetsAt: resetsAt.toISOString() }, '0']);

    const big = await srv.admin.createAccount({ plan: 'enterprise' });
    const e = await srv.rest('GET', '/v1/usage', { key: big.key });
    expect([e.body.plan, e.body.credits.limit, e.body.wallets.limit, creditsLeft(e)]).toEqual(['enterprise', null, null, 'unlimited']);
    const y = await srv.rest('GET', '/v1/yields', { key: big.key });
    expect([y.status, creditsLeft(y)]).toEqual([200, 'unlimited']);
    expect((await srv.rest('GET', '/v1/usage', { key: big.key })).body.credits.used).toBe(1);
  });

  test('behavior: a read-only key reads it; without a key it is 401 like any /v1 route', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const reader = await srv.admin.issueKey(acct.accountId, { scopes: ['read'] });
    const u = await srv.rest('GET', '/v1/usage', { key: reader.key });
    expect([u.status, u.body.plan, creditsLeft(u)]).toEqual([200, 'pro', '10000']);
    const none = await srv.rest('GET', '/v1/usage');
    expect([none.status, none.body.error, creditsLeft(none)]).toEqual([401, 'UNAUTHORIZED', null]);
  });
});

describe('X-Credits-Remaining', () => {
  test('behavior: on a charged read, the credits left after its charge, read from the reservation (no counter read of its own)', async () => {
    const acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
    const reads = jest.spyOn(srv.service.deps.store.usage, 'get');
    try {
      const first = await srv.rest('GET', '/v1/yields', { key: acct.key });
      const second = await srv.rest('POST', '/v1/wallets', { key: acct.key, body: { userId: 'bob' } });
      expect([first.status, creditsLeft(first), second.status, creditsLeft(second)]).toEqual([200, '99', 201, '98']);
      expect(creditReads(reads)).toBe(0);
    } finally {
      reads.mockRestore();
    }
    expect(await used(acct.accountId)).toBe(2);
  });

  test('behavior: on the 4xx answers of a known account: refunded ones show the credits unchanged, those before any operation read them once', async () => {
    const acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
    const { key } = acct;
    await srv.rest('GET', '/v1/yields', { key }); // 1 used: 99 left from here on
    const reader = await srv.admin.issueKey(acct.accountId, { scopes: ['read'] });
    const reads = jest.spyOn(srv.service.deps.store.usage, 'get');
    try {
      // within an operation: the refund's decrement gives the counter back, no read
      const missing = await srv.rest('GET', '/v1/wallets/nobody', { key });
      const badQuery = await srv.rest('GET', '/v1/yields?asset=DOGE', { key });
      expect([missing.status, creditsLeft(missing), badQuery.status, creditsLeft(badQuery)]).toEqual([404, '99', 400, '99']);
      expect(creditReads(reads)).toBe(0);
      // refused before any operation: one read each
      const malformed = await srv.rest('POST', '/v1/wallets', { key, body: '{"userId":', headers: { 'Content-Type': 'application/json' } });
      const scope = await srv.rest('POST', '/v1/wallets', { key: reader.key, body: { userId: 'carol' } });
      const route = await srv.rest('GET', '/v1/nothing-here', { key });
      const method = await srv.rest('DELETE', '/v1/usage', { key });
      expect([malformed, scope, route, method].map((a) => [a.status, a.body.error, creditsLeft(a)])).toEqual([
        [400, 'INVALID_REQUEST', '99'],
        [403, 'FORBIDDEN', '99'],
        [404, 'NOT_FOUND', '99'],
        [405, 'METHOD_NOT_ALLOWED', '99'],
      ]);
      expect(creditReads(reads)).toBe(4);
    } finally {
      reads.mockRestore();
    }
    expect(await used(acct.accountId)).toBe(1);
  });

  test('behavior: on a 429 of the rate window, with the credits untouched', async () => {
    const acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 2 });
    await fitInRateWindow(5_000);
    await srv.rest('GET', '/v1/yields', { key: acct.key });
    await srv.rest('GET', '/v1/usage', { key: acct.key });
    const limited = await srv.rest('GET', '/v1/usage', { key: acct.key });
    expect([limited.status, limited.body.error, creditsLeft(limited)]).toEqual([429, 'RATE_LIMIT_EXCEEDED', '99']);
  });

  test('behavior: absent where no account is admitted: no key, a malformed or unknown key, a revoked key, a paid read offer', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    await srv.admin.revokeKey(acct.keyId);
    const answers = await Promise.all([
      srv.rest('GET', '/v1/usage'),
      srv.rest('GET', '/v1/usage', { key: 'nope' }),
      srv.rest('GET', '/v1/usage', { key: `svc_sk_${'0'.repeat(64)}` }),
      srv.rest('GET', '/v1/usage', { key: acct.key }),
      srv.rest('GET', '/v1/yields'),
    ]);
    expect(answers.map((a) => [a.status, creditsLeft(a)])).toEqual([
      [401, null],
      [401, null],
      [401, null],
      [401, null],
      [402, null],
    ]);
    // the revoked key's 401 still shows its account's rate window (as before), not its spending
    expect(answers[3]!.headers.get('x-ratelimit-limit')).not.toBeNull();
  });
});

describe('GraphQL usage', () => {
  test('behavior: the same numbers as GET /v1/usage, for 0 credits; with another field the operation costs only that field', async () => {
    const acct = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
    const { key } = acct;
    await srv.rest('POST', '/v1/wallets', { key, body: { userId: 'dan' } });
    await srv.rest('GET', '/v1/yields', { key });

    await fitInRateWindow(5_000);
    const g = await srv.gql(USAGE_QUERY, undefined, key);
    expect(g.status).toBe(200);
    expect(g.body.errors).toBeUndefined();
    const rest = await srv.rest('GET', '/v1/usage', { key });
    expect(g.body.data.usage).toEqual({
      ...rest.body,
      plan: 'FREE',
      rateWindow: { ...rest.body.rateWindow, used: rest.body.rateWindow.used - 1, remaining: rest.body.rateWindow.remaining + 1 },
    });
    expect(g.body.data.usage.credits.used).toBe(2);
    expect(await used(acct.accountId)).toBe(2);

    const both = await srv.gql('{ usage { credits { used } } yields { rates { apy } } }', undefined, key);
    expect(both.body.errors).toBeUndefined();
    expect(await used(acct.accountId)).toBe(3);
  });

  test('behavior: a read-only key reads it; without a key it is refused', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const reader = await srv.admin.issueKey(acct.accountId, { scopes: ['read'] });
    const g = await srv.gql('{ usage { plan credits { used limit } wallets { count limit } } }', undefined, reader.key);
    expect(g.body).toEqual({ data: { usage: { plan: 'PRO', credits: { used: 0, limit: 10_000 }, wallets: { count: 0, limit: 10_000 } } } });
    const none = await srv.gql('{ usage { plan } }');
    expect(none.status).toBe(401);
  });
});
