import { randomBytes } from 'node:crypto';
import { createPublicClient, erc20Abi, http, parseTransaction, toFunctionSelector, type Address, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainName } from '../../../src/domain/chains';
import type { SandboxManifest } from '../../../src/ports/deploymentManifest';
import { createSystemClock } from '../../../src/domain/clock';
import type { Intent } from '../../../src/domain/intent';
import { isFinal } from '../../../src/domain/intentStateMachine';
import { createKeyVault } from '../../../src/chain/keyVault';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { startChains, type RunningChains } from '../../../src/chain/startChains';
import { createEngine, type Engine } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import type { ChainPort } from '../../../src/ports/chain';
import type { KeyVault } from '../../../src/ports/keyVault';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import { startTestServer, ADMIN_TOKEN, type Json, type TestServer } from '../../helpers/server';
import { loadSandboxManifest, PLAIN_ACCOUNT_MODELS, sandboxChain } from '../../setup/sandbox';
import { walletRecord } from '../../unit/engine/intentFixture';
import { expectCompleted, expectPositionNear, intentHttp, positionOn, txKinds, usdc, usdcOn, type IntentHttp } from './intentsHttpHelpers';

/**
 * The plain-transaction path's permit supply on the shared sandbox devnets: a
 * deposit of Circle's USDC to Aave v3 is one `supplyWithPermit` transaction
 * carrying the wallet's EIP-2612 permit (no approve, no allowance left), a
 * deposit to Compound stays approve + supply, the preview prices the one
 * transaction, an injected deposit revert owes no revoke, a replacement
 * carries the same permit, and a restart resumes a signed permit supply from
 * its persisted bytes without a second signature.
 */

const manifest = loadSandboxManifest();
let srv: TestServer;
let key: string;
let api: IntentHttp;

/** The wallet's USDC allowance to the chain's Aave Pool, read on chain. */
async function aaveAllowance(chain: ChainName, owner: string, on: SandboxManifest = manifest): Promise<bigint> {
  const d = sandboxChain(on, chain);
  const client = createPublicClient({ chain: viemChainFor(chain, d.rpcUrl), transport: http(d.rpcUrl, { retryCount: 0 }) });
  return client.readContract({ address: d.tokens.USDC!, abi: erc20Abi, functionName: 'allowance', args: [owner as Address, d.aavePool!] });
}

beforeAll(async () => {
  // the plain-transaction path on every chain, whatever the sandbox's default account model
  srv = await startTestServer({ SANDBOX_MANIFEST: process.env.SANDBOX_MANIFEST!, SANDBOX_ACCOUNT_MODEL: 'plain' });
  key = (await srv.admin.createAccount({ plan: 'pro', requestsPerMinute: 10_000 })).key;
  api = intentHttp(srv, key);
});
afterAll(() => srv?.stop());

describe('plain path: supplyWithPermit', () => {
  test('behavior: a lend of USDC to Aave is one transaction (a supply carrying the permit): no approve, no allowance left, the position read back', async () => {
    const w = await api.fundedWallet('permit-lend', { 'base-sepolia': '15' });

    const done = await api.run({ walletId: w.id, action: 'lend', amount: '10', chain: 'base-sepolia' });

    expectCompleted(done);
    expect(done.executionPlan.steps).toEqual([expect.objectContaining({ type: 'deposit', chain: 'base-sepolia', protocol: 'aave-v3', status: 'completed' })]);
    expect(txKinds(done)).toEqual(['supply@base-sepolia']);
    expect(done.results.transactions[0]).toMatchObject({ status: 'confirmed', txHash: done.executionPlan.steps[0].txHash });
    // how the deposit is sent is the service's business: the step shows no permit flag
    expect(done.executionPlan.steps[0]).not.toHaveProperty('permit');
    expect(await aaveAllowance('base-sepolia', w.address)).toBe(0n);
    const after = await api.balances(w.id);
    expect(usdcOn(after, 'base-sepolia')).toBe(usdc('5'));
    expectPositionNear(positionOn(after, 'base-sepolia', 'aave-v3'), usdc('10'));

    // a second permit from the same wallet takes the token's next nonce
    const again = await api.run({ walletId: w.id, action: 'lend', amount: '5', chain: 'base-sepolia' });
    expectCompleted(again);
    expect(txKinds(again)).toEqual(['supply@base-sepolia']);
    expectPositionNear(positionOn(await api.balances(w.id), 'base-sepolia', 'aave-v3'), usdc('15'));
  });

  test('behavior: a lend to Compound (ethereum-sepolia) stays approve + supply', async () => {
    const w = await api.fundedWallet('permit-comet', { 'ethereum-sepolia': '4' });

    const done = await api.run({ walletId: w.id, action: 'lend', amount: '4', chain: 'ethereum-sepolia' });

    expectCompleted(done);
    expect(done.executionPlan.steps).toEqual([expect.objectContaining({ type: 'deposit', protocol: 'compound-v3' })]);
    expect(txKinds(done)).toEqual(['approve@ethereum-sepolia', 'supply@ethereum-sepolia']);
  });

  test('behavior: a single-bridge lend to Aave mints, then supplies with a permit what arrived', async () => {
    const w = await api.fundedWallet('permit-bridge', { 'arbitrum-sepolia': '6' });

    const done = await api.run({ walletId: w.id, action: 'lend', amount: '6', chain: 'base-sepolia' });

    expectCompleted(done);
    expect(txKinds(done)).toEqual(['approve@arbitrum-sepolia', 'burn@arbitrum-sepolia', 'mint@base-sepolia', 'supply@base-sepolia']);
    expect(await aaveAllowance('base-sepolia', w.address)).toBe(0n);
    expectPositionNear(positionOn(await api.balances(w.id), 'base-sepolia', 'aave-v3'), usdc(String(done.amount)));
  });

  test('behavior: the preview of such a lend prices one transaction, the permit supply, and its gas is what the lend then uses within 25 %', async () => {
    const w = await api.fundedWallet('permit-preview', { 'base-sepolia': '8' });
    const body = { walletId: w.id, action: 'lend', amount: '8', chain: 'base-sepolia' };

    const p = await srv.rest('POST', '/v1/intents/preview', { key, body });

    expect(p.status).toBe(200);
    expect(p.body.steps).toHaveLength(1);
    expect(p.body.steps[0].gas.transactions.map((t: Json) => [t.kind, t.chain, t.estimate])).toEqual([['supply', 'base-sepolia', 'simulated']]);
    expect(p.body.totals.gasUnits).toBe(p.body.steps[0].gas.transactions[0].gas);

    const done = await api.run(body);
    expectCompleted(done);
    const used = Number(done.results.transactions[0].gasUsed);
    const previewed = Number(p.body.totals.gasUnits);
    expect(Math.abs(used - previewed) / used).toBeLessThan(0.25);
  });

  test('error: an injected deposit revert of a permit supply → DEPOSIT_FAILED at the deposit, no revoke owed, the USDC stays in the wallet', async () => {
    const w = await api.fundedWallet('permit-revert', { 'base-sepolia': '30' });
    const fault = await srv.rest('POST', '/admin/sandbox/faults', { key: ADMIN_TOKEN, body: { chain: 'base-sepolia', kind: 'deposit-revert', count: 1 } });
    expect(fault.status).toBe(201);

    // the wallet holds more than twice the amount: only a supply without its permit can revert
    const done = await api.run({ walletId: w.id, action: 'lend', amount: '3', chain: 'base-sepolia' });

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'DEPOSIT_FAILED', details: { step: 1, type: 'deposit', kind: 'supply' } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    expect(txKinds(done)).toEqual(['supply@base-sepolia']);
    expect(done.results.transactions[0].status).toBe('reverted');
    expect(await aaveAllowance('base-sepolia', w.address)).toBe(0n);
    expect(usdcOn(await api.balances(w.id), 'base-sepolia')).toBe(usdc('30'));
  });
});

describe('plain path: a permit supply replaced, or interrupted by a restart', () => {
  let chains: RunningChains;
  const store = createMemoryStore();
  const keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
  const engines: Engine[] = [];

  beforeAll(async () => {
    // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts.
    // Devnets of its own: a permit's deadline is the chain's clock, which another file moves on the shared devnets.
    chains = await startChains({
      chainMode: 'sandbox',
      sandboxBlockTimeMs: 0,
      rpcUrls: {},
      sandboxAccountModels: PLAIN_ACCOUNT_MODELS,
    });
  });
  afterAll(async () => {
    await Promise.all(engines.map((e) => e.stop()));
    await chains?.stop();
  });

  /** The key vault, counting every signature its wallets' signers make (transactions and typed data alike). */
  function counting(vault: KeyVault): { vault: Pick<KeyVault, 'signer'>; signatures: () => number } {
    let n = 0;
    const counted = (a: LocalAccount): LocalAccount => ({
      ...a,
      signTransaction: (...args: Parameters<LocalAccount['signTransaction']>) => (n++, a.signTransaction(...args)),
      signTypedData: ((...args: Parameters<LocalAccount['signTypedData']>) => (n++, a.signTypedData(...args))) as LocalAccount['signTypedData'],
    });
    return { vault: { signer: async (id) => counted(await vault.signer(id)) }, signatures: () => n };
  }

  const engine = (port: ChainPort, vault: Pick<KeyVault, 'signer'>): Engine => {
    const e = createEngine({ store, chains: port, keyVault: vault, clock: createSystemClock(), logger: silentLogger, retry: { baseMs: 50, maxMs: 500 } });
    engines.push(e);
    return e;
  };

  function settled(e: Engine, id: string): Promise<Intent> {
    return new Promise((resolve) => {
      let off = (): void => undefined;
      const done = (i: Intent | null): void => {
        if (i === null || !isFinal(i.status)) return;
        off();
        resolve(i);
      };
      off = e.bus.listen({ intentId: id }, done);
      void store.intents.get(id).then(done);
    });
  }

  test('behavior: a permit supply replaced at a higher fee carries the same permit (the same calldata), whichever of the two lands', async () => {
    const wallet = privateKeyToAccount(`0x${randomBytes(32).toString('hex')}`);
    await chains.controls!.mint({ chain: 'base-sepolia', asset: 'USDC', address: wallet.address, amount: usdc('3') });
    const tx = { kind: 'supply', chain: 'base-sepolia', protocol: 'aave-v3', asset: 'USDC', amount: usdc('3'), permit: true } as const;

    const sent = await chains.port.send(wallet, tx, async () => undefined);
    const replaced = await chains.port.replace(wallet, sent, async () => undefined);

    const [a, b] = [parseTransaction(sent.raw), parseTransaction(replaced.raw)];
    expect(replaced.txHash).not.toBe(sent.txHash);
    expect(b.nonce).toBe(a.nonce);
    expect(b.data).toBe(a.data);
    expect(a.data?.slice(0, 10)).toBe(toFunctionSelector('supplyWithPermit(address,uint256,address,uint16,uint256,uint8,bytes32,bytes32)'));
    const mined = await chains.port.findReceipt('base-sepolia', [sent.txHash, replaced.txHash], 10_000);
    expect(mined?.status).toBe('success');
  });

  test('behavior: the process dies after the permit supply is persisted, before its broadcast → the next engine broadcasts the same bytes, signs nothing, one supply lands', async () => {
    const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
    const address = await keyVault.createKey(id);
    await store.wallets.insert(walletRecord(id, address, 'acct_permit_it'));
    await chains.controls!.mint({ chain: 'base-sepolia', asset: 'USDC', address, amount: usdc('7') });

    let stopping: Promise<void> | undefined;
    const dying: ChainPort = {
      ...chains.port,
      send: (signer, tx, onSigned) =>
        chains.port.send(signer, tx, async (signed) => {
          await onSigned(signed);
          if (tx.kind !== 'supply') return;
          stopping = first.stop();
          throw new Error('process killed');
        }),
    };
    const first = engine(dying, keyVault);
    const now = new Date().toISOString();
    const intent: Intent = {
      id: `intent_${randomBytes(16).toString('hex')}`,
      accountId: 'acct_permit_it',
      walletId: id,
      status: 'pending',
      action: 'lend',
      asset: 'USDC',
      amount: '7',
      requestedAmount: '7',
      chain: 'base-sepolia',
      executionPlan: null,
      createdAt: now,
      updatedAt: now,
      version: 0,
    };
    await store.intents.insert(intent);
    await first.submit(intent);
    for (let n = 0; n < 600 && stopping === undefined; n++) await new Promise((r) => setTimeout(r, 20));
    await stopping;
    const persisted = await store.intents.get(intent.id);
    expect(persisted?.executionPlan?.steps[0]).toMatchObject({ type: 'deposit', permit: true });
    const signed = persisted?.results?.transactions.find((t) => (t as { kind?: string }).kind === 'supply');
    expect(signed).toMatchObject({ status: 'signed' });
    expect(await chains.port.receipt('base-sepolia', signed!.txHash as `0x${string}`, 500)).toBeNull();

    const keys = counting(keyVault);
    const second = engine(chains.port, keys.vault);
    await second.start();
    const done = await settled(second, intent.id);

    expect(done.status).toBe('completed');
    expect(done.results?.transactions.map((t) => `${(t as { kind?: string }).kind}:${t.txHash}`)).toEqual([`supply:${signed!.txHash}`]);
    expect(keys.signatures()).toBe(0);
    const [h] = await chains.port.holdings(address, ['base-sepolia']);
    expect(h?.positions.find((p) => p.protocol === 'aave-v3')?.amount).toBeGreaterThanOrEqual(usdc('7') - 1n);
    expect(await aaveAllowance('base-sepolia', address, chains.manifest)).toBe(0n);
  });
});
