import { createPublicClient, http, type Address } from 'viem';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../../helpers/server';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import type { ChainName } from '../../../src/domain/chains';
import {
  expectCompleted,
  expectMinedTransactions,
  expectPositionNear,
  expectTotals,
  intentHttp,
  positionOn,
  positionsOf,
  txKinds,
  usdc,
  usdcApy,
  usdcOn,
  type IntentHttp,
} from './intentsHttpHelpers';
import { PROTOCOLS_WITHOUT_PERMITS } from '../../helpers/withoutPermits';

/**
 * Intents over HTTP against injected faults and changed rates. Both are
 * global to a devnet, so this file runs on its OWN sandbox (the empty
 * SANDBOX_MANIFEST makes the service start fresh devnets; route fee 0 there)
 * and its tests run one after the other.
 */

let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
  srv = await startTestServer({ SANDBOX_MANIFEST: '', SANDBOX_ACCOUNT_MODEL: 'plain' }, { protocols: PROTOCOLS_WITHOUT_PERMITS });
  key = (await srv.admin.createAccount({ plan: 'pro' })).key;
  api = intentHttp(srv, key);
}, 60_000);
afterAll(() => srv?.stop());

async function fault(chain: string, kind: string, count: number): Promise<void> {
  const r = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain, kind, count } });
  expect(r.status).toBe(201);
}

/** The USDC allowance `owner` gives the bridge or a pool on `chain`, read on chain. */
async function allowance(chain: ChainName, owner: string, spender: 'bridge' | 'aave-v3'): Promise<bigint> {
  const d = srv.service.chains.manifest.chains[chain]!;
  const client = createPublicClient({ transport: http(d.rpcUrl, { retryCount: 0 }) });
  const to = spender === 'bridge' ? d.tokenMessenger : d.aavePool!;
  return client.readContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'allowance', args: [owner as Address, to] });
}

/** Faults registered and not yet consumed by the service's chain adapter. */
const pendingFaults = (): Record<string, number> => (srv.service.deps.chains as unknown as { faults: { pending(): Record<string, number> } }).faults.pending();

describe('faults', () => {
  test('error: a bridge-revert on the second source chain → BRIDGE_FAILED at step 2; step 1 stays completed, the unbridged funds stay on their source chain', async () => {
    const w = await api.fundedWallet('bridge-revert', { 'ethereum-sepolia': '6', 'arbitrum-sepolia': '5' });
    await fault('arbitrum-sepolia', 'bridge-revert', 1);

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 10 });

    expect(done.status).toBe('failed');
    expect(done.completedAt).toBeUndefined();
    expect(done.executionPlan.strategy).toBe('multi-bridge');
    expect(done.executionPlan.steps.map((s: any) => `${s.type}:${s.status}`)).toEqual(['bridge:completed', 'bridge:failed', 'deposit:pending']);
    expect(done.error).toEqual({
      code: 'BRIDGE_FAILED',
      message: expect.stringContaining('Step 2 (bridge) failed'),
      details: expect.objectContaining({ step: 2, type: 'bridge', chain: 'arbitrum-sepolia', kind: 'burn', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) }),
    });
    expect(done.results).toMatchObject({ failedStep: 2, completedSteps: 1 });
    // the allowance the reverted burn left to the bridge is taken back (approve to 0) before the intent fails
    expect(txKinds(done)).toEqual([
      'approve@ethereum-sepolia',
      'burn@ethereum-sepolia',
      'mint@base-sepolia',
      'approve@arbitrum-sepolia',
      'burn@arbitrum-sepolia',
      'revoke@arbitrum-sepolia',
    ]);
    expect(done.results.transactions.map((t: any) => t.status)).toEqual(['confirmed', 'confirmed', 'confirmed', 'confirmed', 'reverted', 'confirmed']);
    expect(await allowance('arbitrum-sepolia', w.address, 'bridge')).toBe(0n);
    expect(done.results.transactions[4].txHash).toBe(done.error.details.txHash);
    // the reverted burn was mined too: it has gas and counts in the totals
    expectMinedTransactions(done.results.transactions);
    expectTotals(done.results);
    expect(pendingFaults()).toEqual({});

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(usdc('5'));
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('6'));
    expect(positionsOf(after)).toEqual([]);
  });

  test('error: a deposit-revert → DEPOSIT_FAILED at step 1, nothing completed, the funds stay in the wallet on that chain', async () => {
    const w = await api.fundedWallet('deposit-revert', { 'base-sepolia': '5' });
    await fault('base-sepolia', 'deposit-revert', 1);

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 5 });

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'DEPOSIT_FAILED', details: { step: 1, type: 'deposit', kind: 'supply' } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    expect(done.executionPlan.steps[0].status).toBe('failed');
    expect(txKinds(done)).toEqual(['approve@base-sepolia', 'supply@base-sepolia', 'revoke@base-sepolia']);
    expect(await allowance('base-sepolia', w.address, 'aave-v3')).toBe(0n);
    expect(pendingFaults()).toEqual({});

    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('5'));
    expect(positionsOf(after)).toEqual([]);
  });

  test('behavior: two transient rpc-errors on the target chain are retried with back-off and the lend completes', async () => {
    const w = await api.fundedWallet('rpc-error', { 'base-sepolia': '7' });
    await fault('base-sepolia', 'rpc-error', 2);
    const started = Date.now();

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 7 });

    expectCompleted(done);
    expect(done.executionPlan.strategy).toBe('no-bridge');
    expect(pendingFaults()).toEqual({});
    // at least the first back-off (500 ms) was waited
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc('7'));
  });

  test('behavior: two transient timeouts on a bridge source chain are retried and the bridge completes', async () => {
    const w = await api.fundedWallet('timeout', { 'ethereum-sepolia': '2' });
    await fault('ethereum-sepolia', 'timeout', 2);

    const done = await api.run({ walletId: w.id, action: 'bridge', amount: 2, fromChain: 'ethereum-sepolia', toChain: 'arbitrum-sepolia' });

    expectCompleted(done);
    expect(pendingFaults()).toEqual({});
    // route fee 0 on this sandbox: everything arrives
    expect(done).toMatchObject({ amount: 2, requestedAmount: 2 });
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(usdc('2'));
  });
});

describe('failures after an irreversible step (burned means minted)', () => {
  test('behavior: attestation failing 3 times after a confirmed burn → the bridge still completes and the destination holds the funds; no USDC missing', async () => {
    const w = await api.fundedWallet('attest-error', { 'arbitrum-sepolia': '3' });
    await fault('arbitrum-sepolia', 'attestation-error', 3);

    const done = await api.run({ walletId: w.id, action: 'bridge', amount: 3, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });

    expectCompleted(done);
    expect(pendingFaults()).toEqual({});
    expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@base-sepolia']);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('3'));
  });

  test('behavior: intent writes failing right after the burn receipt → the intent stays open (never failed) and completes once the store recovers; no USDC missing', async () => {
    const w = await api.fundedWallet('store-error', { 'ethereum-sepolia': '4' });
    const { bus } = srv.service.deps.engine;
    const seen: string[] = [];
    let armed = false;
    // The moment the burn's receipt is persisted, the next 3 intent writes fail (as a lost primary would make them).
    const off = bus.listen({ walletId: w.id }, (i) => {
      seen.push(i.status);
      const burnConfirmed = i.results?.transactions.some((t: any) => t.kind === 'burn' && t.status === 'confirmed');
      if (burnConfirmed && !armed) {
        armed = true;
        srv.service.chains.controls!.registerFault({ chain: 'ethereum-sepolia', kind: 'store-error', count: 3 });
      }
    });
    try {
      const done = await api.run({ walletId: w.id, action: 'lend', amount: 4, chain: 'base-sepolia' });
      expectCompleted(done);
    } finally {
      off();
    }
    expect(armed).toBe(true);
    expect(seen).not.toContain('failed');
    expect(pendingFaults()).toEqual({});
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc('4'));
  });
});

describe('rates', () => {
  test('behavior: after ethereum-sepolia compound is raised to the best USDC rate, a lend without chain bridges there (single-bridge) and reports that APY', async () => {
    const set = await srv.rest('POST', '/admin/sandbox/rates', {
      key: ADMIN_TOKEN,
      body: { chain: 'ethereum-sepolia', protocol: 'compound-v3', asset: 'USDC', apy: 9 },
    });
    expect(set.status).toBe(200);
    const apy = await usdcApy(srv, key, 'ethereum-sepolia', 'compound-v3');
    expect(apy).toBeCloseTo(9, 2);
    const w = await api.fundedWallet('rates', { 'base-sepolia': '4' });

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 4 });

    expectCompleted(done);
    expect(done.executionPlan.strategy).toBe('single-bridge');
    expect(done.executionPlan.steps).toEqual([
      expect.objectContaining({ type: 'bridge', from: 'base-sepolia', to: 'ethereum-sepolia', amount: '4' }),
      expect.objectContaining({ type: 'deposit', chain: 'ethereum-sepolia', protocol: 'compound-v3', amount: '4' }),
    ]);
    expect(done.results.apy).toBe(apy);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
    expectPositionNear(positionOn(after, 'ethereum-sepolia', 'compound-v3'), usdc('4'));
  });
});
