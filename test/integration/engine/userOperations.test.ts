import { createPublicClient, http, type Address, type Hex } from 'viem';
import { ADMIN_TOKEN, startTestServer, type Json, type TestServer } from '../../helpers/server';
import type { ChainName } from '../../../src/domain/chains';
import { decimal, expectPositionNear, intentHttp, positionsOf, txKinds, usdc, usdcOn, type IntentHttp } from './intentsHttpHelpers';

/**
 * Intents on 7702 chains end to end, over HTTP on the service's own devnets
 * (faults are global to a devnet): every chain's calls of an intent go into
 * ONE user operation, bundled by the gas tank and paid by the paymaster; the
 * wallet keeps its address, is delegated to Simple7702Account, and never
 * holds native ETH. Failures inside a batch end as on the plain path.
 */

let srv: TestServer;
let key: string;
let api: IntentHttp;

beforeAll(async () => {
  srv = await startTestServer({ SANDBOX_MANIFEST: '', SANDBOX_ACCOUNT_MODEL: '7702' });
  key = (await srv.admin.createAccount({ plan: 'enterprise' })).key;
  api = intentHttp(srv, key);
}, 90_000);
afterAll(() => srv?.stop());

const deployment = (chain: ChainName) => srv.service.chains.manifest.chains[chain]!;
const client = (chain: ChainName) => createPublicClient({ transport: http(deployment(chain).rpcUrl, { retryCount: 0 }) });

/** The intent's distinct transaction hashes on each chain. */
function hashesPerChain(intent: Json): Record<string, Hex[]> {
  const out: Record<string, Hex[]> = {};
  for (const t of intent.results.transactions) out[t.chain] = [...new Set([...(out[t.chain] ?? []), t.txHash as Hex])];
  return out;
}

/** The blocks the intent's transactions were mined in, per chain. */
async function blocksPerChain(intent: Json): Promise<Record<string, bigint[]>> {
  const out: Record<string, bigint[]> = {};
  for (const [chain, hashes] of Object.entries(hashesPerChain(intent))) {
    const receipts = await Promise.all(hashes.map((hash) => client(chain as ChainName).getTransactionReceipt({ hash })));
    out[chain] = [...new Set(receipts.map((r) => r.blockNumber))];
  }
  return out;
}

/** The wallet's EIP-7702 designator on `chain` (0xef0100 ++ delegate), or '0x'. */
async function codeOf(chain: ChainName, address: string): Promise<string> {
  return ((await client(chain).getCode({ address: address as Address })) ?? '0x').toLowerCase();
}
const designator = (chain: ChainName): string => `0xef0100${deployment(chain).erc4337!.delegate.slice(2).toLowerCase()}`;

/** Every USDC position of the report on `chain`, summed (the planner picks the chain's best market). */
const lentOn = (report: Json, chain: string): bigint =>
  report.chains
    .find((c: Json) => c.chain === chain)
    .positions.filter((p: Json) => p.asset === 'USDC')
    .reduce((s: bigint, p: Json) => s + BigInt(p.balance), 0n);

const ethOf = (chain: ChainName, address: string): Promise<bigint> => client(chain).getBalance({ address: address as Address });

async function fault(chain: string, kind: string, count: number): Promise<void> {
  const r = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain, kind, count } });
  expect(r.status).toBe(201);
}

/** Every record of a completed intent is confirmed with gas, and its totals are the sums (records of one operation share its hash). */
function expectCompletedInOperations(intent: Json): void {
  expect(intent.status).toBe('completed');
  expect(intent.error).toBeUndefined();
  expect(intent.executionPlan.steps.map((s: Json) => s.status)).toEqual(intent.executionPlan.steps.map(() => 'completed'));
  const hashes = intent.results.transactions.map((t: Json) => t.txHash);
  for (const s of intent.executionPlan.steps) {
    expect(hashes).toContain(s.txHash);
    expect(BigInt(s.gasUsed)).toBeGreaterThan(0n);
  }
  for (const t of intent.results.transactions) {
    expect(t.status).toBe('confirmed');
    expect(BigInt(t.gasUsed)).toBeGreaterThan(0n);
  }
  const gas = intent.results.transactions.reduce((sum: bigint, t: Json) => sum + BigInt(t.gasUsed), 0n);
  expect(intent.results.totalGasUsed).toBe(gas.toString());
  const stepGas = intent.executionPlan.steps.reduce((sum: bigint, s: Json) => sum + BigInt(s.gasUsed), 0n);
  expect(stepGas).toBe(gas);
}

describe('user operations (every chain 7702)', () => {
  test('behavior: a no-bridge lend is one operation in one block; the wallet is delegated, keeps its address and never holds native ETH', async () => {
    const w = await api.fundedWallet('op-lend', { 'base-sepolia': '5' });
    expect(await ethOf('base-sepolia', w.address)).toBe(0n);
    expect(await codeOf('base-sepolia', w.address)).toBe('0x');

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 5, chain: 'base-sepolia' });

    expectCompletedInOperations(done);
    expect(txKinds(done)).toEqual(['approve@base-sepolia', 'supply@base-sepolia']);
    expect(Object.values(hashesPerChain(done)).map((h) => h.length)).toEqual([1]);
    expect(Object.values(await blocksPerChain(done)).map((b) => b.length)).toEqual([1]);
    expect(await ethOf('base-sepolia', w.address)).toBe(0n);
    expect(await codeOf('base-sepolia', w.address)).toBe(designator('base-sepolia'));
    const balances = await api.balances(w.id);
    expect(balances.address).toBe(w.address);
    const after = await api.balances(w.id);
    expectPositionNear(lentOn(after, 'base-sepolia'), usdc('5'));
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);

    // a second intent on the chain: the wallet is delegated already, still no ETH
    await api.mint('base-sepolia', w.address, '2');
    const again = await api.run({ walletId: w.id, action: 'lend', amount: 2, chain: 'base-sepolia' });
    expectCompletedInOperations(again);
    expect(Object.values(hashesPerChain(again)).map((h) => h.length)).toEqual([1]);
    expect(await ethOf('base-sepolia', w.address)).toBe(0n);
  });

  test('behavior: a single-bridge lend is one operation on each chain: approve + burn on the source, mint + approve + supply on the destination', async () => {
    const w = await api.fundedWallet('op-bridge', { 'arbitrum-sepolia': '4' });

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 4, chain: 'base-sepolia' });

    expectCompletedInOperations(done);
    expect(done.executionPlan.strategy).toBe('single-bridge');
    expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@base-sepolia', 'approve@base-sepolia', 'supply@base-sepolia']);
    const perChain = hashesPerChain(done);
    expect(Object.keys(perChain).sort()).toEqual(['arbitrum-sepolia', 'base-sepolia']);
    expect(Object.values(perChain).map((h) => h.length)).toEqual([1, 1]);
    for (const chain of ['arbitrum-sepolia', 'base-sepolia'] as const) {
      expect(await ethOf(chain, w.address)).toBe(0n);
      expect(await codeOf(chain, w.address)).toBe(designator(chain));
    }
    const after = await api.balances(w.id);
    expect(lentOn(after, 'base-sepolia')).toBeGreaterThan(0n);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
  });

  test('behavior: a rebalance from two chains is one operation per chain, the destination minting both bridges in its one operation', async () => {
    const w = await api.fundedWallet('op-rebalance', { 'arbitrum-sepolia': '3', 'ethereum-sepolia': '3' });
    expect((await api.run({ walletId: w.id, action: 'lend', amount: 3, chain: 'arbitrum-sepolia' })).status).toBe('completed');
    expect((await api.run({ walletId: w.id, action: 'lend', amount: 3, chain: 'ethereum-sepolia' })).status).toBe('completed');

    // each source is the position its lend made (the chain's best market; Compound rounds a unit down)
    const lent = await api.balances(w.id);
    const sources = lent.chains.flatMap((c: Json) =>
      c.positions.filter((p: Json) => p.asset === 'USDC').map((p: Json) => ({ chain: c.chain, protocol: p.protocol, amount: decimal(BigInt(p.balance)) })),
    );
    expect(sources).toHaveLength(2);
    const total = sources.reduce((sum: bigint, x: Json) => sum + usdc(x.amount), 0n);
    const done = await api.run({ walletId: w.id, action: 'rebalance', amount: decimal(total), toChain: 'base-sepolia', toProtocol: 'aave-v3', sources });

    expectCompletedInOperations(done);
    const perChain = hashesPerChain(done);
    expect(Object.keys(perChain).sort()).toEqual(['arbitrum-sepolia', 'base-sepolia', 'ethereum-sepolia']);
    expect(Object.values(perChain).map((h) => h.length)).toEqual([1, 1, 1]);
    const onBase = done.results.transactions.filter((t: Json) => t.chain === 'base-sepolia').map((t: Json) => t.kind);
    expect(onBase).toEqual(['mint', 'mint', 'approve', 'supply']);
    for (const chain of ['arbitrum-sepolia', 'ethereum-sepolia', 'base-sepolia'] as const) expect(await ethOf(chain, w.address)).toBe(0n);
    expect(positionsOf(await api.balances(w.id))).toEqual(['aave-v3@base-sepolia']);
  });
});

describe('failures inside a batch', () => {
  test('error: a deposit revert inside the batch → DEPOSIT_FAILED at step 1, the approve undone with it, the funds stay in the wallet', async () => {
    const w = await api.fundedWallet('op-deposit-revert', { 'base-sepolia': '5' });
    await fault('base-sepolia', 'deposit-revert', 1);

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 5, chain: 'base-sepolia' });

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'DEPOSIT_FAILED', details: { step: 1, type: 'deposit', kind: 'supply' } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    // one operation, mined and reverted whole: both calls reverted, the failing one carries the gas; no allowance stands, no revoke owed
    expect(txKinds(done)).toEqual(['approve@base-sepolia', 'supply@base-sepolia']);
    expect(done.results.transactions.map((t: Json) => t.status)).toEqual(['reverted', 'reverted']);
    expect(new Set(done.results.transactions.map((t: Json) => t.txHash)).size).toBe(1);
    expect(BigInt(done.results.transactions[1].gasUsed)).toBeGreaterThan(0n);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('5'));
    expect(positionsOf(after)).toEqual([]);
    expect(await ethOf('base-sepolia', w.address)).toBe(0n);
  });

  test('error: a burn revert inside the batch → BRIDGE_FAILED at step 1, the funds stay on the source chain', async () => {
    const w = await api.fundedWallet('op-bridge-revert', { 'ethereum-sepolia': '4' });
    await fault('ethereum-sepolia', 'bridge-revert', 1);

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 4, chain: 'base-sepolia' });

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'BRIDGE_FAILED', details: { step: 1, type: 'bridge', kind: 'burn' } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    expect(txKinds(done)).toEqual(['approve@ethereum-sepolia', 'burn@ethereum-sepolia']);
    expect(done.results.transactions.map((t: Json) => t.status)).toEqual(['reverted', 'reverted']);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(usdc('4'));
    expect(usdcOn(after, 'base-sepolia')).toBe(0n);
  });
});

/** Faults registered and not yet consumed by the service's chain adapter. */
const pendingFaults = (): Record<string, number> => (srv.service.deps.chains as unknown as { faults: { pending(): Record<string, number> } }).faults.pending();

describe('engine faults on the 7702 path (as on the plain path: intentsHttpFaults)', () => {
  test('behavior: two transient rpc-errors on the target chain are retried with back-off and the lend completes in one operation', async () => {
    const w = await api.fundedWallet('op-rpc-error', { 'base-sepolia': '7' });
    await fault('base-sepolia', 'rpc-error', 2);

    const done = await api.run({ walletId: w.id, action: 'lend', amount: 7, chain: 'base-sepolia' });

    expectCompletedInOperations(done);
    expect(pendingFaults()).toEqual({});
    expect(Object.values(hashesPerChain(done)).map((h) => h.length)).toEqual([1]);
    expectPositionNear(lentOn(await api.balances(w.id), 'base-sepolia'), usdc('7'));
  });

  test('behavior: two transient timeouts on a bridge source chain are retried and the bridge completes, one operation per chain', async () => {
    const w = await api.fundedWallet('op-timeout', { 'ethereum-sepolia': '2' });
    await fault('ethereum-sepolia', 'timeout', 2);

    const done = await api.run({ walletId: w.id, action: 'bridge', amount: 2, fromChain: 'ethereum-sepolia', toChain: 'arbitrum-sepolia' });

    expectCompletedInOperations(done);
    expect(pendingFaults()).toEqual({});
    expect(Object.values(hashesPerChain(done)).map((h) => h.length)).toEqual([1, 1]);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(usdc('2'));
  });

  test('behavior: attestation failing 3 times after a confirmed burn → the destination operation still mints; no USDC missing', async () => {
    const w = await api.fundedWallet('op-attest-error', { 'arbitrum-sepolia': '3' });
    await fault('arbitrum-sepolia', 'attestation-error', 3);

    const done = await api.run({ walletId: w.id, action: 'bridge', amount: 3, fromChain: 'arbitrum-sepolia', toChain: 'base-sepolia' });

    expectCompletedInOperations(done);
    expect(pendingFaults()).toEqual({});
    expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@base-sepolia']);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'arbitrum-sepolia')).toBe(0n);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('3'));
    expect(await ethOf('base-sepolia', w.address)).toBe(0n);
  });

  test('behavior: intent writes failing right after the source operation is mined → the intent stays open and completes once the store recovers', async () => {
    const w = await api.fundedWallet('op-store-error', { 'ethereum-sepolia': '4' });
    const { bus } = srv.service.deps.engine;
    const seen: string[] = [];
    let armed = false;
    const off = bus.listen({ walletId: w.id }, (i) => {
      seen.push(i.status);
      const burnConfirmed = i.results?.transactions.some((t: Json) => t.kind === 'burn' && t.status === 'confirmed');
      if (burnConfirmed && !armed) {
        armed = true;
        srv.service.chains.controls!.registerFault({ chain: 'ethereum-sepolia', kind: 'store-error', count: 3 });
      }
    });
    try {
      expectCompletedInOperations(await api.run({ walletId: w.id, action: 'lend', amount: 4, chain: 'base-sepolia' }));
    } finally {
      off();
    }
    expect(armed).toBe(true);
    expect(seen).not.toContain('failed');
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'ethereum-sepolia')).toBe(0n);
    expectPositionNear(lentOn(after, 'base-sepolia'), usdc('4'));
  });
});
