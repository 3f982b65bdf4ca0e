import { startTestServer, type HttpAnswer, type TestServer } from '../helpers/server';
import { walletRecord } from '../unit/engine/intentFixture';

/**
 * Limits hold exactly under concurrency, over real HTTP:
 * every request below is in flight at once, and the counts are exact, never
 * "about": the store's conditional updates decide, not a read-then-write.
 */
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 60_000);
afterAll(() => srv?.stop());

const count = (answers: HttpAnswer[], status: number) => answers.filter((a) => a.status === status).length;

test('error: 200 concurrent reads on a free account (100 credits) → exactly 100 succeed, 100 are CREDITS_EXHAUSTED; used is 100', async () => {
  const free = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
  const answers = await Promise.all(Array.from({ length: 200 }, () => srv.rest('GET', '/v1/yields', { key: free.key })));
  expect(count(answers, 200)).toBe(100);
  expect(answers.filter((a) => a.status === 403).every((a) => a.body.error === 'CREDITS_EXHAUSTED')).toBe(true);
  expect(count(answers, 403)).toBe(100);
  expect((await srv.admin.usage(free.accountId)).credits.used).toBe(100);
});

test('error: 20 concurrent reads with 5 credits left → exactly 5 succeed', async () => {
  const free = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
  for (let i = 0; i < 95; i++) expect((await srv.rest('GET', '/v1/yields', { key: free.key })).status).toBe(200);
  const answers = await Promise.all(Array.from({ length: 20 }, () => srv.rest('GET', '/v1/yields', { key: free.key })));
  expect(count(answers, 200)).toBe(5);
  expect((await srv.admin.usage(free.accountId)).credits.used).toBe(100);
});

test('behavior: 20 concurrent POST /v1/wallets with one Idempotency-Key → one wallet created, the others replay it (or are told it is in progress)', async () => {
  const pro = await srv.admin.createAccount({ plan: 'pro' });
  const body = { userId: `idem-${Date.now()}` };
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => srv.rest('POST', '/v1/wallets', { key: pro.key, body, headers: { 'Idempotency-Key': 'one-key-20-times' } })),
  );
  const created = answers.filter((a) => a.status === 201);
  expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
  expect(created.filter((a) => a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
  // a request that found the key held by the first one gets 409 IDEMPOTENCY_CONFLICT-style "in progress", never a second wallet
  for (const a of answers.filter((x) => x.status !== 201)) expect(a.status).toBe(409);
  expect((await srv.admin.usage(pro.accountId)).wallets.count).toBe(1);
});

test("error: 10 concurrent POST /v1/wallets two below the plan's wallet limit → exactly 2 created, 8 WALLET_LIMIT_EXCEEDED; the count is exactly the limit, refused ones made no key and spent no credit", async () => {
  const free = await srv.admin.createAccount({ plan: 'free', requestsPerMinute: 1000 });
  const limit = (await srv.admin.usage(free.accountId)).wallets.limit!;
  expect(limit).toBe(100);
  // limit − 2 wallets, put straight into the store (no credits spent on them)
  const { store, keyVault } = srv.service.deps;
  for (let i = 0; i < limit - 2; i++) {
    const id = `svc_wallet_limit${free.accountId.slice(-12)}${String(i).padStart(4, '0')}`;
    await store.wallets.insert({ ...walletRecord(id, `0x${(i + 1).toString(16).padStart(40, '0')}`, free.accountId), userId: `seeded-${i}` });
  }
  const keysMade = jest.spyOn(keyVault, 'createKey');
  // the vault's write takes a database round trip (a few ms), as it does on MongoDB: creations overlap as they do there
  const insertKey = store.walletKeys.insert.bind(store.walletKeys);
  const slowKeys = jest.spyOn(store.walletKeys, 'insert').mockImplementation(async (r) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return insertKey(r);
  });
  try {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => srv.rest('POST', '/v1/wallets', { key: free.key, body: { userId: `racer-${i}` } })));
    expect(count(answers, 201)).toBe(2);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map((a) => `${a.status} ${a.body.error}`)).toEqual(Array.from({ length: 8 }, () => '403 WALLET_LIMIT_EXCEEDED'));
    const usage = await srv.admin.usage(free.accountId);
    expect(usage.wallets.count).toBe(limit);
    // only the two created wallets cost a credit, and only they made a key
    expect(usage.credits.used).toBe(2);
    expect(keysMade).toHaveBeenCalledTimes(2);
    for (const a of answers.filter((x) => x.status === 201)) expect(await store.walletKeys.get(a.body.id)).not.toBeNull();
  } finally {
    keysMade.mockRestore();
    slowKeys.mockRestore();
  }
  // at the limit, one more is refused too
  const more = await srv.rest('POST', '/v1/wallets', { key: free.key, body: { userId: 'one-more' } });
  expect(`${more.status} ${more.body.error}`).toBe('403 WALLET_LIMIT_EXCEEDED');
});
