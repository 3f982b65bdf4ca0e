import { createPublicClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { baseSepolia } from 'viem/chains';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';
import { sandboxTokenAbi } from '../../src/chain/sandbox/abis';
import { IntentDocument, ServiceApiError, createClient, responseOf, settlementOf, wasReplayed, type ServiceClient, type WatchedIntent } from '../../sdk/src';

/**
 * The SDK (sdk/) against the real service: HTTP server, devnets, graphql-ws.
 * A lend that bridges, followed with watchIntent to COMPLETED and read again
 * with waitForIntent; typed errors; Idempotency-Key on POSTs and its replay;
 * a keyless read paid over x402 with a viem account; the standing intents'
 * methods, the backtest over rates written into the history.
 *
 * On its OWN sandbox: paid reads check an authorization's time window against
 * the chain's clock, which other files move on the shared devnets, and the
 * lend relies on the default rates (base-sepolia the best USDC market).
 */

let srv: TestServer;
let key: string;
let accountId: string;
let client: ServiceClient;
let seq = 0;

const userId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;

async function mint(chain: string, address: string, amount: string): Promise<void> {
  const r = await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain, asset: 'USDC', address, amount } });
  if (r.status !== 200) throw new Error(`mint ${amount} on ${chain}: ${r.status} ${r.text}`);
}

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<ServiceApiError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(ServiceApiError);
  return outcome.error as ServiceApiError;
}

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '' });
  const acct = await srv.admin.createAccount({ plan: 'pro' });
  key = acct.key;
  accountId = acct.accountId;
  client = createClient({ baseUrl: srv.url, apiKey: key });
}, 90_000);

afterAll(async () => {
  await client?.close();
  await srv?.stop();
});

describe('a lend across chains', () => {
  test('behavior: wallets.create, a mint on a chain that is not the best market, intents.create without a chain → watchIntent follows it to COMPLETED through the bridge; waitForIntent answers the same intent', async () => {
    const yields = await client.yields.get({ asset: 'USDC' });
    const best = yields.best!;
    expect(best.chain).toBe('base-sepolia');
    const wallet = await client.wallets.create({ userId: userId('sdk-lend') });
    expect(wallet.id).toMatch(/^svc_wallet_[0-9a-f]{32}$/);
    const source = 'arbitrum-sepolia';
    await mint(source, wallet.address, '2');

    const created = await client.intents.create({ walletId: wallet.id, action: 'lend', amount: '1.25' });
    expect(created.status).toBe('pending');

    const seen: WatchedIntent[] = [];
    for await (const update of client.intents.watch(created.id)) seen.push(update);
    const last = seen.at(-1)!;
    expect(last.id).toBe(created.id);
    expect(last.status).toBe('COMPLETED');
    // every snapshot in order, and the iterator ended at the final one
    const order = ['PENDING', 'PLANNING', 'EXECUTING', 'COMPLETED'];
    const ranks = seen.map((s) => order.indexOf(s.status));
    expect(ranks.every((r) => r >= 0)).toBe(true);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(seen.filter((s) => s.status === 'COMPLETED')).toHaveLength(1);

    const steps = last.executionPlan!.steps;
    expect(last.executionPlan!.strategy).toBe('SINGLE_BRIDGE');
    expect(steps.map((s) => s.__typename)).toEqual(['BridgeStep', 'DepositStep']);
    const bridge = steps[0]!;
    const deposit = steps[1]!;
    expect(bridge.__typename === 'BridgeStep' && [bridge.from, bridge.to]).toEqual(['ARBITRUM_SEPOLIA', 'BASE_SEPOLIA']);
    expect(deposit.__typename === 'DepositStep' && [deposit.chain, deposit.protocol]).toEqual(['BASE_SEPOLIA', 'AAVE_V3']);
    const txs = last.results!.transactions;
    expect(txs.map((t) => `${t.kind}@${t.chain}`)).toEqual(expect.arrayContaining(['BURN@ARBITRUM_SEPOLIA', 'MINT@BASE_SEPOLIA', 'SUPPLY@BASE_SEPOLIA']));
    expect(txs.every((t) => t.status === 'CONFIRMED' && /^0x[0-9a-f]{64}$/.test(t.txHash) && (t.gasCostUsd ?? 0) > 0)).toBe(true);
    // the burn was seen confirmed before its mint was sent: the subscription showed the bridge in progress
    expect(seen.some((s) => s.results?.transactions.some((t) => t.kind === 'BURN') && !s.results.transactions.some((t) => t.kind === 'MINT'))).toBe(true);

    const polled = await client.intents.wait(created.id, { intervalMs: 200 });
    expect(polled.status).toBe('completed');
    expect({
      id: polled.id,
      finalAmount: polled.results!.finalAmount,
      apy: polled.results!.apy,
      totalGasUsed: polled.results!.totalGasUsed,
      txs: polled.results!.transactions.map((t) => t.txHash),
      steps: polled.executionPlan!.steps.map((s) => `${s.type}:${s.status}:${s.txHash}`),
    }).toEqual({
      id: last.id,
      finalAmount: last.results!.finalAmount,
      apy: last.results!.apy,
      totalGasUsed: last.results!.totalGasUsed,
      txs: txs.map((t) => t.txHash),
      steps: steps.map((s) => `${s.__typename.replace('Step', '').toLowerCase()}:${s.status.toLowerCase()}:${s.txHash}`),
    });
    expect(polled.results!.finalAmount).toBe('1.25');

    const balances = await client.balances.get(wallet.id);
    const position = balances.chains.find((c) => c.chain === 'base-sepolia')!.positions.find((p) => p.protocol === 'aave-v3' && p.asset === 'USDC');
    expect(Number(position!.balanceFormatted)).toBeCloseTo(1.25, 2);
    // the intent's deposit is the position's principal; what it earned is the rest of its balance
    expect(position!.principal).toBe('1.25');
    expect(BigInt(position!.balance) - 1_250_000n).toBe(BigInt(Math.round(Number(position!.earned) * 1e6)));
  }, 90_000);
});

describe('typed errors', () => {
  test('error: a 404 rejects with ServiceApiError WALLET_NOT_FOUND / INTENT_NOT_FOUND, status, message and the X-Request-Id', async () => {
    const e = await rejection(client.wallets.get('nobody-here'));
    expect({ code: e.code, status: e.status, name: e.name }).toEqual({ code: 'WALLET_NOT_FOUND', status: 404, name: 'ServiceApiError' });
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.requestId).toBe(e.response!.headers.get('x-request-id'));
    expect(e.requestId).toBeTruthy();

    const i = await rejection(client.intents.get('intent_0123456789abcdef0123456789abcdef'));
    expect([i.code, i.status]).toEqual(['INTENT_NOT_FOUND', 404]);
  });

  test('error: a 400 carries INVALID_REQUEST and details.issues naming the field', async () => {
    const wallet = await client.wallets.create({ userId: userId('sdk-400') });
    const e = await rejection(client.intents.create({ walletId: wallet.id, action: 'lend', amount: '-3' }));
    expect([e.code, e.status]).toEqual(['INVALID_REQUEST', 400]);
    const issues = e.details.issues as { path: string }[];
    expect(issues.map((x) => x.path)).toContain('amount');
    // the Idempotency-Key the refused POST was sent with, to retry it as the same request
    expect(e.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test('error: GraphQL errors reject with the same class, code from extensions.code, over HTTP and over the subscription', async () => {
    const e = await rejection(client.graphql.request(IntentDocument, { id: 'intent_0123456789abcdef0123456789abcdef' }));
    expect(e.code).toBe('INTENT_NOT_FOUND');
    expect(e.graphqlErrors).toHaveLength(1);

    const watching = (async () => {
      for await (const _ of client.intents.watch('intent_0123456789abcdef0123456789abcdef')) throw new Error('no snapshot expected');
    })();
    const w = await rejection(watching);
    expect(w.code).toBe('INTENT_NOT_FOUND');
  });

  test('error: a bad API key is 401 UNAUTHORIZED on REST', async () => {
    const bad = createClient({ baseUrl: srv.url, apiKey: `svc_sk_${'0'.repeat(64)}` });
    const e = await rejection(bad.usage.get());
    expect([e.code, e.status]).toEqual(['UNAUTHORIZED', 401]);
  });
});

describe('Idempotency-Key', () => {
  test('behavior: every POST /wallets and /intents carries one (a fresh UUID each), GETs none; a given key is sent as given', async () => {
    const sent: { method: string; path: string; key: string | null }[] = [];
    const spying = createClient({
      baseUrl: srv.url,
      apiKey: key,
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push({ method: request.method, path: new URL(request.url).pathname, key: request.headers.get('idempotency-key') });
        return fetch(request);
      },
    });
    const a = await spying.wallets.create({ userId: userId('sdk-key-a') });
    await spying.wallets.create({ userId: userId('sdk-key-b') });
    await spying.wallets.create({ userId: userId('sdk-key-c') }, { idempotencyKey: 'mine-1' });
    await spying.balances.get(a.id);
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/wallets', 'POST /v1/wallets', 'POST /v1/wallets', `GET /v1/balances/${a.id}`]);
    const [k1, k2, k3, k4] = sent.map((s) => s.key);
    expect(k1).toMatch(/^[0-9a-f-]{36}$/);
    expect(k2).toMatch(/^[0-9a-f-]{36}$/);
    expect(k1).not.toBe(k2);
    expect([k3, k4]).toEqual(['mine-1', null]);
  });

  test('behavior: the same key and body → the same intent again with Idempotent-Replayed: true; the same key with another body → 409 IDEMPOTENCY_CONFLICT', async () => {
    const wallet = await client.wallets.create({ userId: userId('sdk-replay') });
    const idempotencyKey = `order-${Date.now()}`;
    const body = { walletId: wallet.id, action: 'lend' as const, amount: '0.5' };
    const first = await client.intents.create(body, { idempotencyKey });
    const again = await client.intents.create(body, { idempotencyKey });
    expect(again.id).toBe(first.id);
    expect([wasReplayed(first), wasReplayed(again)]).toEqual([false, true]);
    expect(responseOf(again)!.headers.get('idempotent-replayed')).toBe('true');
    expect(responseOf(first)!.status).toBe(201);

    const other = await rejection(client.intents.create({ ...body, amount: '0.6' }, { idempotencyKey }));
    expect([other.code, other.status, other.idempotencyKey]).toEqual(['IDEMPOTENCY_CONFLICT', 409, idempotencyKey]);
  });
});

describe('standing intents', () => {
  test('behavior: create (every bad field named first), list, get, pause, resume, decisions and delete, typed from the OpenAPI document; a deleted one is STANDING_INTENT_NOT_FOUND', async () => {
    const wallet = await client.wallets.create({ userId: userId('sdk-standing') });
    const bad = await rejection(client.standingIntents.create({ walletId: wallet.id, asset: 'USDC', horizonDays: 0, maxMovesPerDay: 99 }));
    expect([bad.code, bad.status]).toEqual(['INVALID_REQUEST', 400]);
    expect((bad.details.issues as { path: string }[]).map((i) => i.path).sort()).toEqual(['horizonDays', 'maxMovesPerDay']);

    const created = await client.standingIntents.create({ walletId: wallet.id, asset: 'USDC', amount: '5' });
    expect(created).toMatchObject({ walletId: wallet.id, asset: 'USDC', amount: '5', horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2, status: 'active' });
    expect(created.id).toMatch(/^svc_standing_[0-9a-f]{32}$/);
    expect(responseOf(created)!.status).toBe(201);

    const page = await client.standingIntents.list({ first: 100 });
    expect(page.standingIntents.map((s) => s.id)).toContain(created.id);
    expect(await client.standingIntents.get(created.id)).toMatchObject({ id: created.id, amount: '5', status: 'active' });

    expect((await client.standingIntents.pause(created.id)).status).toBe('paused');
    expect((await client.standingIntents.get(created.id)).status).toBe('paused');
    expect((await client.standingIntents.resume(created.id)).status).toBe('active');

    const decisions = await client.standingIntents.decisions(created.id, { first: 5 });
    expect(decisions.decisions.every((d) => d.standingIntentId === created.id)).toBe(true);
    expect(typeof decisions.pageInfo.hasNextPage).toBe('boolean');

    await expect(client.standingIntents.delete(created.id)).resolves.toBeUndefined();
    const gone = await rejection(client.standingIntents.get(created.id));
    expect([gone.code, gone.status]).toEqual(['STANDING_INTENT_NOT_FOUND', 404]);
    const again = await rejection(client.standingIntents.delete(created.id));
    expect([again.code, again.status]).toEqual(['STANDING_INTENT_NOT_FOUND', 404]);
  });

  test('behavior: simulate replays rates written into the history: one move into the market that overtook, at the second sample after, with the series and cumulative earnings as [at, …] tuples', async () => {
    const HOUR = 3_600_000;
    const A = { chain: 'base-sepolia', protocol: 'aave-v3' } as const;
    const B = { chain: 'arbitrum-sepolia', protocol: 'aave-v3' } as const;
    // In the past, before the service's own samples: B pays 3 %, then 6 % from hour 12; A 4 % throughout.
    const start = Math.floor(Date.now() / HOUR) * HOUR - 80 * HOUR;
    const iso = (h: number) => new Date(start + h * HOUR).toISOString();
    const history = srv.service.deps.store.rateHistory as unknown as {
      record(samples: { chain: string; protocol: string; asset: 'USDC'; at: string; apy: number }[]): Promise<void>;
      recordCosts(at: string, costs: unknown): Promise<void>;
    };
    const samples = [];
    for (let h = 0; h < 48; h++)
      samples.push({ ...A, asset: 'USDC' as const, at: iso(h), apy: 4 }, { ...B, asset: 'USDC' as const, at: iso(h), apy: h < 12 ? 3 : 6 });
    await history.record(samples);
    await history.recordCosts(iso(-1), {
      gasUsdPerUnit: { 'base-sepolia': 1e-8, 'arbitrum-sepolia': 2e-8 },
      routeFeeBps: { 'base-sepolia': { 'arbitrum-sepolia': 1.3 }, 'arbitrum-sepolia': { 'base-sepolia': 1.3 } },
      assetUsd: { USDC: 1 },
    });

    const r = await client.standingIntents.simulate({ asset: 'USDC', amount: '100000', from: iso(0), to: iso(48) });
    expect(r.samples).toBe(48);
    expect(r.moves).toHaveLength(1);
    expect(r.moves[0]).toMatchObject({ at: iso(13), from: { ...A, apy: 4 }, to: { ...B, apy: 6 }, amount: '100000' });
    expect(r.strategy.costsUsd).toBe(r.moves[0]!.costUsd);
    expect(r.firstMarket.market).toEqual(A);
    expect(r.todaysBest.market).toEqual(B);
    expect(r.series.map((s) => `${s.chain}/${s.protocol}`).sort()).toEqual(['arbitrum-sepolia/aave-v3', 'base-sepolia/aave-v3']);
    const [at, apy] = r.series.find((s) => s.chain === 'arbitrum-sepolia')!.points.at(-1)!;
    expect([at, apy]).toEqual([iso(47), 6]);
    expect(r.cumulative.at(-1)).toEqual([iso(47), r.strategy.netUsd, r.firstMarket.netUsd]);

    const refused = await rejection(client.standingIntents.simulate({ asset: 'USDC', amount: '100000', from: iso(48), to: iso(0) }));
    expect([refused.code, refused.status]).toEqual(['INVALID_REQUEST', 400]);
  });
});

describe('keyless reads paid over x402', () => {
  test('behavior: createClient({ payer }) with a viem account pays 0.001 USDC for GET /v1/yields and a wallet read; the payer loses 1000 units per read on chain', async () => {
    const base = srv.service.chains.manifest.chains['base-sepolia']!;
    const chain = createPublicClient({ chain: { ...baseSepolia, rpcUrls: { default: { http: [base.rpcUrl] } } }, transport: http(base.rpcUrl) });
    const usdcOf = (address: Address) =>
      chain.readContract({ address: base.tokens.USDC as Address, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [address] });
    const account = privateKeyToAccount(generatePrivateKey());
    await mint('base-sepolia', account.address, '1');
    const before = await usdcOf(account.address);

    // without a payer the read is refused with the offer
    const unpaid = await rejection(createClient({ baseUrl: srv.url }).yields.get());
    expect([unpaid.code, unpaid.status]).toEqual(['PAYMENT_REQUIRED', 402]);
    expect(unpaid.response!.headers.get('payment-required')).toBeTruthy();

    const keyless = createClient({ baseUrl: srv.url, payer: account, accountId });
    const yields = await keyless.yields.get({ asset: 'USDC' });
    expect(yields.rates.length).toBeGreaterThan(0);
    const settlement = settlementOf(responseOf(yields)!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:84532' });
    const receipt = await chain.getTransactionReceipt({ hash: settlement!.transaction as Hex });
    expect(receipt.status).toBe('success');

    const owned = await client.wallets.create({ userId: userId('sdk-paid'), metadata: { tier: 'gold' } });
    const paidWallet = await keyless.wallets.get(owned.userId);
    expect(paidWallet.id).toBe(owned.id);
    expect('metadata' in paidWallet).toBe(false);
    expect(settlementOf(responseOf(paidWallet)!)?.success).toBe(true);

    expect(await usdcOf(account.address)).toBe(before - 2000n);
  }, 60_000);
});
