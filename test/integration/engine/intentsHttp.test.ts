import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../../helpers/server';
import { SANDBOX_TEST_FEE_BPS } from '../../setup/sandbox';
import {
  decimal,
  expectCompleted,
  expectPositionNear,
  feeOf,
  intentHttp,
  positionOn,
  positionsOf,
  ROUNDING,
  txKinds,
  usdc,
  usdcApy,
  usdcOn,
  type IntentHttp,
} from './intentsHttpHelpers';
import { PROTOCOLS_WITHOUT_PERMITS } from '../../helpers/withoutPermits';

/**
 * Lend, withdraw and bridge intents end to end: POST /v1/intents on the real
 * service attached to the shared sandbox devnets, GET /v1/intents/:id polled
 * until final, then the chain state read back through GET /v1/balances.
 * Nothing here injects faults or changes rates (see intentsHttpFaults.test.ts).
 */

let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' }, { protocols: PROTOCOLS_WITHOUT_PERMITS });
  // pro: enough monthly credits for the polling (wallets still act on the three test chains only)
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
  api = intentHttp(srv, key);
});
afterAll(() => srv?.stop());

describe('lend', () => {
  test('behavior: funds already on base-sepolia (best USDC APY), no chain named → no-bridge: one aave deposit there, amount = requested', async () => {
    const w = await api.fundedWallet('lend-nobridge', { 'base-sepolia': '25' });
    const apy = await usdcApy(srv, key, 'base-sepolia', 'aave-v3');

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 20 });

    expectCompleted(done);
    expect(done).toMatchObject({ walletId: w.id, action: 'lend', asset: 'USDC', amount: 20, requestedAmount: 20 });
    expect(done.executionPlan.strategy).toBe('no-bridge');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ index: 0, type: 'deposit', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '20', status: 'completed' }),
    ]);
    expect(done.executionPlan.steps[0].txHash).toBe(done.results.transactions[1].txHash);
    expect(txKinds(done)).toEqual(['approve@base-sepolia', 'supply@base-sepolia']);
    expect(done.results.finalAmount).toBe('20');
    expect(done.results.apy).toBe(apy);
    expect(done.results.apy).toBeGreaterThan(4);

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('5'));
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc('20'));
    expect(positionsOf(after)).toEqual(['aave-v3@base-sepolia']);
    // no Aave market lends Circle's USDC on the real base-sepolia: the plan says the market is the sandbox's own
    expect(done.executionPlan.steps.at(-1)).toEqual(expect.objectContaining({ type: 'deposit', sandboxOnly: true }));
  });

  test('behavior: chain ethereum-sepolia named, funds there → direct-deposit into the best protocol of that chain (compound-v3, a real market), not the global best', async () => {
    const w = await api.fundedWallet('lend-direct', { 'ethereum-sepolia': '12' });
    const [compound, aave] = await Promise.all([usdcApy(srv, key, 'ethereum-sepolia', 'compound-v3'), usdcApy(srv, key, 'ethereum-sepolia', 'aave-v3')]);
    expect(compound).toBeGreaterThan(aave);

    const done = await api.run({ walletId: w.id, action: 'lend', amount: '12', chain: 'ethereum-sepolia' });

    expectCompleted(done);
    expect(done).toMatchObject({ chain: 'ethereum-sepolia', amount: 12, requestedAmount: 12 });
    expect(done.executionPlan.strategy).toBe('direct-deposit');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ type: 'deposit', chain: 'ethereum-sepolia', protocol: 'compound-v3', amount: '12', status: 'completed' }),
    ]);
    // Compound III lends Circle's USDC on the real ethereum-sepolia: not a sandbox-only market
    expect(done.executionPlan.steps[0].sandboxOnly).toBeUndefined();
    expect(txKinds(done)).toEqual(['approve@ethereum-sepolia', 'supply@ethereum-sepolia']);
    expect(done.results.apy).toBe(compound);

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expectPositionNear(positionOn(after, 'ethereum-sepolia', 'compound-v3'), usdc('12'));
    expect(positionsOf(after)).toEqual(['compound-v3@ethereum-sepolia']);
  });

  test('behavior: funds on arbitrum-sepolia, no chain named → single-bridge to base-sepolia then deposit; amount = requested minus the 5 bps route fee', async () => {
    const w = await api.fundedWallet('lend-single', { 'arbitrum-sepolia': '8' });
    const fee = feeOf(usdc('8'), SANDBOX_TEST_FEE_BPS);
    const arrives = decimal(usdc('8') - fee);
    expect(arrives).toBe('7.996');

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 8 });

    expectCompleted(done);
    expect(done.requestedAmount).toBe(8);
    expect(done.amount).toBe(7.996);
    expect(done.amount).toBeLessThan(done.requestedAmount);
    expect(done.executionPlan.strategy).toBe('single-bridge');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ index: 0, type: 'bridge', from: 'arbitrum-sepolia', to: 'base-sepolia', amount: '8', fee: decimal(fee), status: 'completed' }),
      expect.objectContaining({ index: 1, type: 'deposit', chain: 'base-sepolia', protocol: 'aave-v3', amount: arrives, status: 'completed' }),
    ]);
    expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@base-sepolia', 'approve@base-sepolia', 'supply@base-sepolia']);
    expect(done.results.finalAmount).toBe(arrives);
    expect(done.results.apy).toBe(await usdcApy(srv, key, 'base-sepolia', 'aave-v3'));

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc(arrives));
  });

  test('behavior: funds spread over ethereum-sepolia and arbitrum-sepolia, neither enough alone → multi-bridge (largest first) then one deposit of what arrives', async () => {
    const w = await api.fundedWallet('lend-multi', { 'ethereum-sepolia': '6', 'arbitrum-sepolia': '5' });
    const fees = feeOf(usdc('6'), SANDBOX_TEST_FEE_BPS) + feeOf(usdc('4'), SANDBOX_TEST_FEE_BPS);
    const arrives = decimal(usdc('10') - fees);
    expect(arrives).toBe('9.995');

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 10 });

    expectCompleted(done);
    expect(done).toMatchObject({ amount: 9.995, requestedAmount: 10 });
    expect(done.executionPlan.strategy).toBe('multi-bridge');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ index: 0, type: 'bridge', from: 'ethereum-sepolia', to: 'base-sepolia', amount: '6', fee: '0.003' }),
      expect.objectContaining({ index: 1, type: 'bridge', from: 'arbitrum-sepolia', to: 'base-sepolia', amount: '4', fee: '0.002' }),
      expect.objectContaining({ index: 2, type: 'deposit', chain: 'base-sepolia', protocol: 'aave-v3', amount: arrives }),
    ]);
    expect(txKinds(done)).toEqual([
      'approve@ethereum-sepolia',
      'burn@ethereum-sepolia',
      'mint@base-sepolia',
      'approve@arbitrum-sepolia',
      'burn@arbitrum-sepolia',
      'mint@base-sepolia',
      'approve@base-sepolia',
      'supply@base-sepolia',
    ]);
    expect(done.results.completedSteps).toBe(3);

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(usdc('1'));
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc(arrives));
    expect(positionsOf(after)).toEqual(['aave-v3@base-sepolia']);
  });

  test('error: more than the wallet holds across all chains → failed in planning with INSUFFICIENT_FUNDS (required, available, perChain), no plan, funds untouched', async () => {
    const w = await api.fundedWallet('lend-short', { 'ethereum-sepolia': '2', 'arbitrum-sepolia': '3' });

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 10 });

    expect(done.status).toBe('failed');
    expect(done.executionPlan).toBeNull();
    expect(done.results).toBeUndefined();
    expect(done.completedAt).toBeUndefined();
    expect(done.error).toEqual({
      code: 'INSUFFICIENT_FUNDS',
      message: expect.any(String),
      details: expect.objectContaining({
        required: '10',
        available: '5',
        perChain: { 'ethereum-sepolia': '2', 'arbitrum-sepolia': '3' },
        asset: 'USDC',
        strategy: 'insufficient',
      }),
    });

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(usdc('2'));
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(usdc('3'));
    expect(positionsOf(after)).toEqual([]);
  });

  test('error: two lends on one wallet whose sum exceeds the balance → exactly one completes, the other fails INSUFFICIENT_FUNDS on what is left', async () => {
    const w = await api.fundedWallet('lend-twice', { 'base-sepolia': '10' });

    const posted = await Promise.all([7, 6].map((amount) => api.submit({ walletId: w.id, action: 'lend', amount })));
    const finals = await Promise.all(posted.map((p: Json) => api.waitFinal(p.id)));

    const completed = finals.filter((i) => i.status === 'completed');
    const failed = finals.filter((i) => i.status === 'failed');
    expect(completed).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const [ok] = completed as [Json];
    const [ko] = failed as [Json];
    expectCompleted(ok);
    const left = usdc('10') - usdc(String(ok.amount));
    expect(ko.executionPlan).toBeNull();
    expect(ko.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(ko.error.details).toMatchObject({ required: String(ko.requestedAmount), available: decimal(left), perChain: { 'base-sepolia': decimal(left) } });

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(left);
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc(String(ok.amount)));
  });
});

describe('withdraw', () => {
  test('behavior: withdraw after a lend → direct-withdraw from the position: the position decreases and the token balance increases by the amount', async () => {
    const w = await api.fundedWallet('withdraw', { 'base-sepolia': '10' });
    expectCompleted(await api.run({ walletId: w.id, action: 'lend', amount: 10 }));
    const before = await api.balances(w.id);
    const pos0 = positionOn(before, 'base-sepolia', 'aave-v3');
    expect(usdcOn(before, 'base-sepolia')).toBe(0n);

    const done = await api.run({ walletId: w.id, action: 'withdraw', amount: 4, chain: 'base-sepolia' });

    expectCompleted(done);
    expect(done).toMatchObject({ action: 'withdraw', chain: 'base-sepolia', amount: 4, requestedAmount: 4 });
    expect(done.executionPlan.strategy).toBe('direct-withdraw');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ index: 0, type: 'withdraw', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: '4', status: 'completed' }),
    ]);
    expect(txKinds(done)).toEqual(['withdraw@base-sepolia']);
    expect(done.results.finalAmount).toBe('4');
    expect(done.results.apy).toBe(await usdcApy(srv, key, 'base-sepolia', 'aave-v3'));

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('4'));
    const pos1 = positionOn(after, 'base-sepolia', 'aave-v3');
    expect(pos1).toBeLessThan(pos0);
    // 4 out, plus at most a little interest accrued in between
    expect(pos0 - pos1).toBeLessThanOrEqual(usdc('4') + ROUNDING);
    expect(pos0 - pos1).toBeGreaterThan(usdc('3.99'));
  });

  test('error: withdraw beyond the position → failed in planning with INSUFFICIENT_FUNDS naming the chain; position and balance unchanged', async () => {
    const w = await api.fundedWallet('withdraw-beyond', { 'base-sepolia': '5' });
    expectCompleted(await api.run({ walletId: w.id, action: 'lend', amount: 3 }));
    const before = await api.balances(w.id);

    const done = await api.run({ walletId: w.id, action: 'withdraw', amount: 50, chain: 'base-sepolia' });

    expect(done.status).toBe('failed');
    expect(done.executionPlan).toBeNull();
    expect(done.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(done.error.details).toMatchObject({ required: '50', chain: 'base-sepolia' });
    expectPositionNear(usdc(done.error.details.available), usdc('3'));

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('2'));
    expect(positionOn(after, 'base-sepolia', 'aave-v3')).toBeGreaterThanOrEqual(positionOn(before, 'base-sepolia', 'aave-v3'));
  });
});

describe('bridge', () => {
  test('behavior: bridge fromChain → toChain: burn on the source, relayer mint on the destination; what arrives is the amount minus the route fee', async () => {
    const w = await api.fundedWallet('bridge', { 'arbitrum-sepolia': '4' });

    const done = await api.run({ walletId: w.id, action: 'bridge', amount: 4, fromChain: 'arbitrum-sepolia', toChain: 'ethereum-sepolia' });

    expectCompleted(done);
    expect(done).toMatchObject({ action: 'bridge', fromChain: 'arbitrum-sepolia', toChain: 'ethereum-sepolia', amount: 3.998, requestedAmount: 4 });
    expect(done.executionPlan.strategy).toBe('single-bridge');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ index: 0, type: 'bridge', from: 'arbitrum-sepolia', to: 'ethereum-sepolia', amount: '4', fee: '0.002', status: 'completed' }),
    ]);
    expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@ethereum-sepolia']);
    expect(done.executionPlan.steps[0].txHash).toBe(done.results.transactions[1].txHash);
    expect(done.results.finalAmount).toBe('3.998');

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(usdc('3.998'));
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
    expect(positionsOf(after)).toEqual([]);
  });

  test('error: bridging more than the source chain holds → INSUFFICIENT_FUNDS with the source chain, funds elsewhere do not count', async () => {
    const w = await api.fundedWallet('bridge-short', { 'arbitrum-sepolia': '1', 'base-sepolia': '9' });

    const done = await api.run({ walletId: w.id, action: 'bridge', amount: 2, fromChain: 'arbitrum-sepolia', toChain: 'ethereum-sepolia' });

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', details: { required: '2', available: '1', chain: 'arbitrum-sepolia' } });
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(usdc('1'));
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('9'));
  });
});

describe('two service instances on the same devnets', () => {
  let other: TestServer;
  beforeAll(async () => {
    // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
    other = await startTestServer(
      { SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' },
      { protocols: PROTOCOLS_WITHOUT_PERMITS },
    );
  });
  afterAll(() => other?.stop());

  test('behavior: admin mints sent at once through both instances all land (the node assigns the faucet nonces)', async () => {
    const wallets = await Promise.all(Array.from({ length: 4 }, (_, i) => api.newWallet(`mint-${i}`)));
    const mints = wallets.flatMap((w) =>
      [srv, other].map((s) =>
        s.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'arbitrum-sepolia', asset: 'USDC', address: w.address, amount: '1.5' } }),
      ),
    );
    expect((await Promise.all(mints)).map((r) => r.status)).toEqual(mints.map(() => 200));
    for (const w of wallets) expect(usdcOn(await api.balances(w.id), 'arbitrum-sepolia')).toBe(usdc('3'));
  });

  test('behavior: bridging lends run at once by two instances sharing the gas tank and relayer (top-ups and mints race on its nonce) all complete', async () => {
    const apis = [api, intentHttp(other, (await other.admin.createAccount({ plan: 'pro' })).key)];
    const runs = apis.flatMap((a, n) =>
      Array.from({ length: 6 }, async (_, i) => {
        const w = await a.fundedWallet(`race-${n}-${i}`, { 'arbitrum-sepolia': '2' });
        const done = await a.run({ walletId: w.id, action: 'lend', amount: 2 });
        return { done, after: await a.balances(w.id) };
      }),
    );
    const outcomes = await Promise.all(runs);

    expect(outcomes.map((o) => `${o.done.status}${o.done.error ? ` ${o.done.error.code}: ${o.done.error.message}` : ''}`)).toEqual(
      outcomes.map(() => 'completed'),
    );
    for (const { done, after } of outcomes) {
      expectCompleted(done);
      expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@base-sepolia', 'approve@base-sepolia', 'supply@base-sepolia']);
      expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
      expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc('1.999'));
    }
  });
});
