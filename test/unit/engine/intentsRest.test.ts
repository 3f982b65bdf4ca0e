import { usdc } from './engineHarness';
import { pollFinal, startIntentsServer, type IntentsServer } from './intentsServer';

describe('REST /v1/intents (memory store, fake chain)', () => {
  let s: IntentsServer;
  let key: string;
  let wallet: { id: string; address: `0x${string}` };

  beforeAll(async () => {
    s = await startIntentsServer();
    ({ key } = await s.account('free'));
    wallet = await s.wallet(key);
    s.chain.fund('base-sepolia', wallet.address, 'USDC', usdc('1000'));
  });

  afterAll(async () => {
    await s?.stop();
  });

  test('behavior: POST → 201 pending intent with Retry-After 5; GET polls it to completed (no Retry-After), the API shape', async () => {
    const created = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'lend', amount: 25 });
    expect(created.status).toBe(201);
    expect(created.headers.get('retry-after')).toBe('5');
    expect(created.body).toEqual({
      id: expect.stringMatching(/^intent_[0-9a-f]{32}$/),
      walletId: wallet.id,
      status: 'pending',
      action: 'lend',
      amount: 25,
      amountUnits: '25000000',
      requestedAmount: 25,
      requestedAmountUnits: '25000000',
      asset: 'USDC',
      // a lend may bridge: its speed is stored, fast by default
      speed: 'fast',
      executionPlan: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const done = await pollFinal(s, key, created.body.id);
    expect(done.status).toBe(200);
    expect(done.headers.get('retry-after')).toBeNull();
    expect(done.body).toMatchObject({
      status: 'completed',
      amount: 25,
      executionPlan: { strategy: 'no-bridge', steps: [{ type: 'deposit', status: 'completed', chain: 'base-sepolia', protocol: 'aave-v3', amount: '25' }] },
      results: { completedSteps: 1, finalAmount: '25', apy: 4.2, totalGasUsed: '226000' },
      completedAt: expect.any(String),
    });
    expect(done.body.results.transactions).toEqual([
      {
        type: 'deposit',
        kind: 'approve',
        txHash: expect.stringMatching(/^0x/),
        chain: 'base-sepolia',
        status: 'confirmed',
        gasUsed: '46000',
        gasCostUsd: 0.0046,
      },
      {
        type: 'deposit',
        kind: 'supply',
        txHash: expect.stringMatching(/^0x/),
        chain: 'base-sepolia',
        status: 'confirmed',
        gasUsed: '180000',
        gasCostUsd: 0.018,
      },
    ]);
  });

  test("error: INSUFFICIENT_FUNDS is the failed intent's error object", async () => {
    const created = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'lend', amount: '5000' });
    const done = await pollFinal(s, key, created.body.id);
    expect(done.body).toMatchObject({ status: 'failed', executionPlan: null, error: { code: 'INSUFFICIENT_FUNDS', details: { required: '5000' } } });
  });

  test('error: validation — INVALID_REQUEST names every bad field, an unknown chain is INVALID_CHAIN', async () => {
    const bad = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'stake', amount: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_REQUEST');
    expect(bad.body.details.issues.map((i: { path: string }) => i.path).sort()).toEqual(['action', 'amount']);
    const chain = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'lend', amount: 1, chain: 'solana' });
    expect(chain.status).toBe(400);
    expect(chain.body.error).toBe('INVALID_CHAIN');
  });

  test('error: upcoming main chains — free plan 403 PLAN_RESTRICTED, pro plan 400 INVALID_CHAIN with status "upcoming"', async () => {
    const free = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'lend', amount: 1, chain: 'base' });
    expect(free.status).toBe(403);
    expect(free.body).toMatchObject({ error: 'PLAN_RESTRICTED', details: { plan: 'free', chain: 'base' } });

    const pro = await s.account('pro');
    const proWallet = await s.wallet(pro.key);
    const res = await s.rest('POST', '/v1/intents', pro.key, {
      walletId: proWallet.id,
      action: 'bridge',
      amount: 1,
      fromChain: 'base-sepolia',
      toChain: 'arbitrum',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_CHAIN', details: { chain: 'arbitrum', status: 'upcoming', field: 'toChain' } });
  });

  test("error: another account's wallet is WALLET_NOT_FOUND; its intents are INTENT_NOT_FOUND", async () => {
    const other = await s.account('free');
    const res = await s.rest('POST', '/v1/intents', other.key, { walletId: wallet.id, action: 'lend', amount: 1 });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('WALLET_NOT_FOUND');

    const mine = await s.rest('POST', '/v1/intents', key, { walletId: wallet.id, action: 'lend', amount: 1 });
    const peek = await s.rest('GET', `/v1/intents/${mine.body.id}`, other.key);
    expect(peek.status).toBe(404);
    expect(peek.body).toMatchObject({ error: 'INTENT_NOT_FOUND' });
    expect((await s.rest('GET', '/v1/intents/intent_nope', key)).status).toBe(404);
    await pollFinal(s, key, mine.body.id);
  });

  test('error: tron wallets cannot take intents (INVALID_CHAIN)', async () => {
    const tron = await s.wallet(key, 'tron');
    const res = await s.rest('POST', '/v1/intents', key, { walletId: tron.id, action: 'lend', amount: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'INVALID_CHAIN', details: { chainType: 'tron' } });
  });

  test('behavior: Idempotency-Key — same body replays the first answer, another body is 409', async () => {
    const body = { walletId: wallet.id, action: 'lend', amount: 2 };
    const headers = { 'Idempotency-Key': `idem-${Date.now()}` };
    const first = await s.rest('POST', '/v1/intents', key, body, headers);
    const again = await s.rest('POST', '/v1/intents', key, body, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const other = await s.rest('POST', '/v1/intents', key, { ...body, amount: 3 }, headers);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('IDEMPOTENCY_CONFLICT');
    await pollFinal(s, key, first.body.id);
  });

  test("behavior: GET /intents lists a wallet's intents newest first, by cursor, filtered by status", async () => {
    const w = await s.wallet(key);
    const ids: string[] = [];
    for (const amount of [1, 2, 3]) {
      ids.push((await s.rest('POST', '/v1/intents', key, { walletId: w.id, action: 'lend', amount })).body.id);
      await new Promise((r) => setTimeout(r, 3)); // distinct createdAt milliseconds: same-millisecond intents order by id
    }
    for (const id of ids) await pollFinal(s, key, id);

    const page1 = await s.rest('GET', `/v1/intents?walletId=${w.id}&first=2`, key);
    expect(page1.status).toBe(200);
    expect(page1.body.intents.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await s.rest('GET', `/v1/intents?walletId=${w.id}&first=2&after=${page1.body.pageInfo.endCursor}`, key);
    expect(page2.body.intents.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(page2.body.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });

    const failed = await s.rest('GET', `/v1/intents?walletId=${w.id}&status=failed`, key);
    expect(failed.body.intents).toHaveLength(3);
    expect(failed.body.intents[0].error.code).toBe('INSUFFICIENT_FUNDS');
    const bad = await s.rest('GET', `/v1/intents?walletId=${w.id}&first=500&after=zzz`, key);
    expect(bad.status).toBe(400);
    expect(bad.body.details.issues.map((i: { path: string }) => i.path)).toEqual(['first']);
    expect((await s.rest('GET', `/v1/intents?walletId=${w.id}&after=zzz`, key)).body.details.issues[0].path).toBe('after');
    expect((await s.rest('GET', '/v1/intents', key)).body.details.issues[0]).toMatchObject({ path: 'walletId', message: 'walletId is required' });
  });
});
