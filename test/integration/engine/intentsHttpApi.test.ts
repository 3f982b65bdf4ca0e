import { startTestServer, type TestAccount, type TestServer } from '../../helpers/server';
import { expectCompleted, expectPositionNear, intentHttp, positionOn, usdc, usdcOn, type IntentHttp } from './intentsHttpHelpers';

/**
 * The HTTP contract of /v1/intents on the real service attached to the shared
 * sandbox devnets: request errors, unknown ids, Retry-After, credits and
 * Idempotency-Key. Nothing here injects faults or changes rates.
 */

let srv: TestServer;
let pro: TestAccount;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' });
  pro = await srv.admin.createAccount({ plan: 'pro' });
  api = intentHttp(srv, pro.key);
});
afterAll(() => srv?.stop());

const issuePaths = (body: any): string[] => body.details.issues.map((i: any) => i.path).sort();

describe('request errors', () => {
  test('error: a body with bad fields is 400 INVALID_REQUEST naming each field', async () => {
    const w = await api.newWallet('bad-body');
    const r = await api.post({ walletId: w.id, action: 'stake', amount: -3, fromChain: 'base-sepolia' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'INVALID_REQUEST', message: expect.any(String) });
    expect(issuePaths(r.body)).toEqual(expect.arrayContaining(['action', 'amount']));

    const missing = await api.post({ action: 'lend' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('INVALID_REQUEST');
    expect(issuePaths(missing.body)).toEqual(['amount', 'walletId']);

    const withdraw = await api.post({ walletId: w.id, action: 'withdraw', amount: 1 });
    expect(withdraw.status).toBe(400);
    expect(withdraw.body.details.issues).toEqual([expect.objectContaining({ path: 'chain', message: 'chain is required for withdraw' })]);

    const bridge = await api.post({ walletId: w.id, action: 'bridge', amount: 1, fromChain: 'base-sepolia' });
    expect(bridge.status).toBe(400);
    expect(issuePaths(bridge.body)).toEqual(['toChain']);

    const precision = await api.post({ walletId: w.id, action: 'lend', amount: '1.0000001' });
    expect(precision.status).toBe(400);
    expect(issuePaths(precision.body)).toEqual(['amount']);
  });

  test('error: an unknown chain is 400 INVALID_CHAIN naming the field', async () => {
    const w = await api.newWallet('bad-chain');
    const r = await api.post({ walletId: w.id, action: 'lend', amount: 1, chain: 'solana' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'INVALID_CHAIN', details: { chain: 'solana', field: 'chain' } });

    const to = await api.post({ walletId: w.id, action: 'bridge', amount: 1, fromChain: 'base-sepolia', toChain: 'polygon' });
    expect(to.status).toBe(400);
    expect(to.body).toMatchObject({ error: 'INVALID_CHAIN', details: { chain: 'polygon', field: 'toChain' } });
  });

  test('error: a free account naming the main network ethereum is 403 PLAN_RESTRICTED; a pro account gets 400 INVALID_CHAIN (upcoming)', async () => {
    const free = await srv.admin.createAccount({ plan: 'free' });
    const freeApi = intentHttp(srv, free.key);
    const w = await freeApi.newWallet('free-main');
    const r = await freeApi.post({ walletId: w.id, action: 'lend', amount: 1, chain: 'ethereum' });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'PLAN_RESTRICTED', details: { plan: 'free', chain: 'ethereum' } });
    expect(r.body.message).toContain('ethereum');

    const pw = await api.newWallet('pro-main');
    const p = await api.post({ walletId: pw.id, action: 'bridge', amount: 1, fromChain: 'ethereum', toChain: 'base' });
    expect(p.status).toBe(400);
    expect(p.body).toMatchObject({ error: 'INVALID_CHAIN', details: { chain: 'ethereum', status: 'upcoming' } });
  });

  test('error: an unknown wallet, or another account’s wallet, is 404 WALLET_NOT_FOUND', async () => {
    const r = await api.post({ walletId: 'svc_wallet_doesnotexist', action: 'lend', amount: 1 });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('WALLET_NOT_FOUND');

    const other = intentHttp(srv, (await srv.admin.createAccount({ plan: 'pro' })).key);
    const theirs = await other.newWallet('not-yours');
    const x = await api.post({ walletId: theirs.id, action: 'lend', amount: 1 });
    expect(x.status).toBe(404);
    expect(x.body.error).toBe('WALLET_NOT_FOUND');
  });

  test('error: GET of an unknown intent, or of another account’s intent, is 404 INTENT_NOT_FOUND', async () => {
    const r = await srv.rest('GET', '/v1/intents/intent_doesnotexist', { key: pro.key });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: 'INTENT_NOT_FOUND', details: { intentId: 'intent_doesnotexist' } });
    expect(r.headers.get('retry-after')).toBeNull();

    const w = await api.newWallet('foreign-intent');
    const mine = await api.submit({ walletId: w.id, action: 'lend', amount: 1 });
    const otherKey = (await srv.admin.createAccount({ plan: 'pro' })).key;
    const x = await srv.rest('GET', `/v1/intents/${mine.id}`, { key: otherKey });
    expect(x.status).toBe(404);
    expect(x.body.error).toBe('INTENT_NOT_FOUND');
    await api.waitFinal(mine.id);
  });
});

describe('polling, credits, idempotency', () => {
  test('behavior: Retry-After: 5 on the 201 and on GETs while not final (an intent queued behind another on its wallet), absent once final', async () => {
    const w = await api.fundedWallet('retry-after', { 'arbitrum-sepolia': '6' });
    // the first (a bridge, several transactions) holds the wallet; the second waits in pending behind it
    const first = await api.submit({ walletId: w.id, action: 'lend', amount: 3 });
    const second = await api.submit({ walletId: w.id, action: 'lend', amount: 2, chain: 'arbitrum-sepolia' });

    const queued = await srv.rest('GET', `/v1/intents/${second.id}`, { key: pro.key });
    expect(queued.status).toBe(200);
    expect(queued.body.status).not.toMatch(/completed|failed/);
    expect(queued.headers.get('retry-after')).toBe('5');

    // waitFinal checks the rule on every answer it gets
    expectCompleted(await api.waitFinal(first.id));
    expectCompleted(await api.waitFinal(second.id));
    const final = await srv.rest('GET', `/v1/intents/${second.id}`, { key: pro.key });
    expect(final.body.status).toBe('completed');
    expect(final.headers.get('retry-after')).toBeNull();
  });

  test('behavior: POST /v1/intents costs 5 credits, GET /v1/intents/:id 1, a refused POST nothing (admin usage)', async () => {
    const acct = await srv.admin.createAccount({ plan: 'pro' });
    const own = intentHttp(srv, acct.key);
    const w = await own.newWallet('credits');
    const used = async (): Promise<number> => (await srv.admin.usage(acct.accountId)).credits.used;

    const u0 = await used();
    const posted = await own.submit({ walletId: w.id, action: 'lend', amount: 1 });
    const u1 = await used();
    expect(u1 - u0).toBe(5);

    expect((await srv.rest('GET', `/v1/intents/${posted.id}`, { key: acct.key })).status).toBe(200);
    const u2 = await used();
    expect(u2 - u1).toBe(1);

    expect((await own.post({ walletId: w.id, action: 'lend' })).status).toBe(400);
    expect(await used()).toBe(u2);
  });

  test('behavior: the same Idempotency-Key and body replays the first answer (same intent id) and runs the intent once; another body is 409', async () => {
    const w = await api.fundedWallet('idempotent', { 'base-sepolia': '5' });
    const body = { walletId: w.id, action: 'lend', amount: 3 };
    const headers = { 'Idempotency-Key': `lend-${w.id}` };

    const first = await api.post(body, headers);
    expect(first.status).toBe(201);
    const again = await api.post({ amount: 3, action: 'lend', walletId: w.id }, headers);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const conflict = await api.post({ ...body, amount: 4 }, headers);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toBe('IDEMPOTENCY_CONFLICT');

    expectCompleted(await api.waitFinal(first.body.id));
    const list = await srv.rest('GET', `/v1/intents?walletId=${w.id}`, { key: pro.key });
    expect(list.status).toBe(200);
    expect(list.body.intents.map((i: any) => i.id)).toEqual([first.body.id]);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('2'));
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc('3'));
  });
});
