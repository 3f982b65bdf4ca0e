import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWalletClient, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startSandbox, type Sandbox } from '../../src/chain/sandbox/sandbox';
import { sandboxPriceFeedAbi } from '../../src/chain/sandbox/abis';
import { viemChainFor } from '../../src/chain/sandbox/viemChains';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../helpers/server';
import { intentHttp, type IntentHttp } from './engine/intentsHttpHelpers';

/**
 * The USD caps are priced where the plan executes: base-sepolia's ETH/USD
 * feed answers 6,000 while the other chains answer 3,000, and the wallet's
 * WETH is on base-sepolia only. A request is refused at once only when even
 * its cheapest source chain exceeds a cap; otherwise the plan is priced step
 * by step and refused before its first signature. Its own devnets: the feed
 * is set before the service reads any price.
 */
let sandbox: Sandbox;
let srv: TestServer;
let dir: string;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  sandbox = await startSandbox({ fastFeeBps: 0 });
  const base = sandbox.manifest.chains['base-sepolia']!;
  const client = createWalletClient({
    account: privateKeyToAccount(sandbox.keys.deployer),
    chain: viemChainFor('base-sepolia', base.rpcUrl),
    transport: http(base.rpcUrl),
  }).extend(publicActions);
  const hash = await client.writeContract({ address: base.ethUsdFeed, abi: sandboxPriceFeedAbi, functionName: 'setAnswer', args: [6000_00000000n] });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
  dir = mkdtempSync(join(tmpdir(), 'policy-pricing-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(sandbox.manifest));
  srv = await startTestServer({ SANDBOX_MANIFEST: join(dir, 'manifest.json') });
  key = (await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 })).key;
  api = intentHttp(srv, key);
  // WETH lends go to base-sepolia, where the funds are
  const rate = await srv.rest('POST', '/admin/sandbox/rates', {
    key: ADMIN_TOKEN,
    body: { chain: 'base-sepolia', protocol: 'aave-v3', asset: 'WETH', apy: 9 },
  });
  expect(rate.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await srv?.stop();
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rest = (method: string, path: string, body?: unknown) => srv.rest(method, path, { key, body });

async function wethWalletUnder(rules: Json, prefix: string, weth = '0.01'): Promise<{ id: string; address: string }> {
  const p = await rest('POST', '/v1/policies', { name: prefix, rules });
  expect(p.status).toBe(201);
  const w = await api.newWallet(prefix);
  await mintWeth(w.address, weth);
  expect((await rest('PUT', `/v1/wallets/${w.id}/policy`, { policyId: p.body.id })).status).toBe(200);
  return w;
}

/** The wallet's WETH on base-sepolia (smallest units). */
async function wethOnBase(walletId: string): Promise<bigint> {
  const c = (await api.balances(walletId)).chains.find((x: Json) => x.chain === 'base-sepolia');
  const t = c?.tokens.find((x: Json) => x.asset === 'WETH');
  return t === undefined ? 0n : BigInt(t.balance);
}

async function mintWeth(address: string, amount: string): Promise<void> {
  const mint = await srv.rest('POST', '/admin/sandbox/mint', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', asset: 'WETH', address, amount } });
  expect(mint.status).toBe(200);
}

describe('USD caps priced where the plan executes', () => {
  test("error: naming base-sepolia decides from the request alone → 403 at base's price (60.00)", async () => {
    const w = await wethWalletUnder({ maxUsdPerIntent: '40' }, 'named');
    const r = await api.post({ walletId: w.id, action: 'lend', amount: '0.01', asset: 'WETH', chain: 'base-sepolia' });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'maxUsdPerIntent', limit: '40', requested: '60.00' } });
  });

  test('error: with no chain the request is accepted (its cheapest source is 30.00), then the plan on base-sepolia (60.00) fails before any signature', async () => {
    const w = await wethWalletUnder({ maxUsdPerIntent: '40' }, 'unnamed');
    const before = await wethOnBase(w.id);
    const preview = await rest('POST', '/v1/intents/preview', { walletId: w.id, action: 'lend', amount: '0.01', asset: 'WETH' });
    expect(preview.status).toBe(403);
    expect(preview.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'maxUsdPerIntent', requested: '60.00' } });
    const intent = await api.run({ walletId: w.id, action: 'lend', amount: '0.01', asset: 'WETH' });
    expect(intent.status).toBe('failed');
    expect(intent.error).toMatchObject({ code: 'POLICY_VIOLATION', details: { rule: 'maxUsdPerIntent', limit: '40', requested: '60.00' } });
    expect(intent.results?.transactions ?? []).toEqual([]);
    expect(await wethOnBase(w.id)).toBe(before);
  });

  test('behavior: the daily cap counts what the plan was worth where it ran (120.00, not the cheapest 60.00)', async () => {
    const w = await wethWalletUnder({ maxUsdPerDay: '200' }, 'daily', '0.04');
    expect((await api.run({ walletId: w.id, action: 'lend', amount: '0.02', asset: 'WETH' })).status).toBe('completed');
    // 120.00 counted: 84.00 more is over the day's 200
    const over = await api.post({ walletId: w.id, action: 'lend', amount: '0.014', asset: 'WETH', chain: 'base-sepolia' });
    expect(over.status).toBe(403);
    expect(over.body).toMatchObject({ error: 'POLICY_VIOLATION', details: { rule: 'maxUsdPerDay', limit: '200', requested: '204.00' } });
  });

  test('error: a plan that takes the day over its cap fails before signing, and what the request reserved comes back', async () => {
    const w = await wethWalletUnder({ maxUsdPerDay: '200' }, 'dailyplan', '0.04');
    expect((await api.run({ walletId: w.id, action: 'lend', amount: '0.02', asset: 'WETH' })).status).toBe('completed');
    const before = await wethOnBase(w.id);
    // accepted at its floor (120 + 60 ≤ 200); the plan is worth 120.00 (120 + 120 > 200)
    const failed = await api.run({ walletId: w.id, action: 'lend', amount: '0.02', asset: 'WETH' });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'POLICY_VIOLATION', details: { rule: 'maxUsdPerDay', limit: '200', requested: '240.00' } });
    expect(failed.results?.transactions ?? []).toEqual([]);
    expect(await wethOnBase(w.id)).toBe(before);
    // its 60.00 came back: 78.00 still fits (120 + 78 ≤ 200)
    const fits = await api.run({ walletId: w.id, action: 'lend', amount: '0.013', asset: 'WETH', chain: 'base-sepolia' });
    expect(fits.status).toBe('completed');
  });
});
