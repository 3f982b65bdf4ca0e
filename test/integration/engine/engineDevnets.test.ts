import { randomBytes } from 'node:crypto';
import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import type { ChainName } from '../../../src/domain/chains';
import { createSystemClock } from '../../../src/domain/clock';
import type { Intent } from '../../../src/domain/intent';
import { fromUnits, toUnits } from '../../../src/domain/money';
import { walletRecord } from '../../unit/engine/intentFixture';
import { createKeyVault } from '../../../src/chain/keyVault';
import type { KeyVault } from '../../../src/ports/keyVault';
import type { ChainPort } from '../../../src/ports/chain';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES } from '../../../src/chain/sandbox/accounts';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { startChains, type RunningChains } from '../../../src/chain/startChains';
import { createEngine, type Engine, type EngineOptions } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import { isFinal } from '../../../src/domain/intentStateMachine';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { Store } from '../../../src/ports/store';
import { loadPlainSandboxManifest, PLAIN_ACCOUNT_MODELS, sandboxChain, SANDBOX_TEST_FEE_BPS } from '../../setup/sandbox';
import { cctpFee } from '../../../src/domain/cctpFee';
import { SANDBOX_KEYS } from '../../../src/chain/sandbox/accounts';
import { startIrisServer } from '../../../src/chain/sandbox/iris/irisServer';
import { createViemChainPort } from '../../../src/chain/viem/createViemChainPort';
import { CHAINS } from '../../../src/domain/chains';
import { PROTOCOLS_WITHOUT_PERMITS } from '../../helpers/withoutPermits';

/**
 * The engine against the real sandbox devnets (jest global setup) through the
 * viem chain port: real signed transactions, real receipts, CCTP-like burn,
 * attestation and mint, injected reverts, and a restart between persisting a
 * transaction and broadcasting it.
 */

// the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
const manifest = loadPlainSandboxManifest();
const usdc = (amount: string): bigint => toUnits(amount, 'USDC');

let chains: RunningChains;
let store: Store;
let keyVault: KeyVault;
const engines: Engine[] = [];

/** Mints sandbox USDC through the node-managed faucet account (the node assigns nonces, so parallel test files never collide). */
async function mintUsdc(chain: ChainName, to: Address, amount: bigint): Promise<void> {
  const d = sandboxChain(manifest, chain);
  const viemChain = viemChainFor(chain, d.rpcUrl);
  const transport = http(d.rpcUrl, { retryCount: 0 });
  const faucet = createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain: viemChain, transport });
  const hash = await faucet.writeContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] });
  await createPublicClient({ chain: viemChain, transport, pollingInterval: 20 }).waitForTransactionReceipt({ hash });
}

function engine(overrides: Partial<EngineOptions> = {}): Engine {
  const e = createEngine({
    store,
    chains: chains.port,
    keyVault,
    clock: createSystemClock(),
    logger: silentLogger,
    retry: { baseMs: 50, maxMs: 500 },
    ...overrides,
  });
  engines.push(e);
  return e;
}

async function newWallet(): Promise<{ id: string; address: Address }> {
  const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
  const address = await keyVault.createKey(id);
  const w = walletRecord(id, address, 'acct_engine_it');
  await store.wallets.insert(w);
  return { id, address };
}

/**
 * Lends `amount` USDC on base-sepolia with an engine whose process "dies" right
 * after the supply is signed and persisted, before the port broadcasts it.
 * Returns the wallet, the intent and the persisted (never broadcast) supply record.
 */
async function lendAndDieBeforeSupplyBroadcast(amount: string) {
  let stopping: Promise<void> | undefined;
  const dying: ChainPort = {
    ...chains.port,
    send: (signer, tx, onSigned) =>
      chains.port.send(signer, tx, async (signed) => {
        await onSigned(signed);
        if (tx.kind !== 'supply') return;
        stopping = first.stop();
        // the process dies before the broadcast: the port never sends these bytes
        throw new Error('process killed');
      }),
  };
  const first = engine({ chains: dying });
  const w = await newWallet();
  await mintUsdc('base-sepolia', w.address, usdc(amount));
  const intent = await submit(first, w.id, { amount, chain: 'base-sepolia' });
  for (let n = 0; n < 600 && stopping === undefined; n++) await new Promise((r) => setTimeout(r, 20));
  await stopping;
  const persisted = await store.intents.get(intent.id);
  const supply = persisted?.results?.transactions.find((t) => (t as { kind?: string }).kind === 'supply');
  return { w, intent, persisted, supply };
}

async function submit(e: Engine, walletId: string, request: Partial<Intent> & Pick<Intent, 'amount'>): Promise<Intent> {
  const now = new Date().toISOString();
  const intent: Intent = {
    id: `intent_${randomBytes(16).toString('hex')}`,
    accountId: 'acct_engine_it',
    walletId,
    status: 'pending',
    action: 'lend',
    asset: 'USDC',
    requestedAmount: request.amount,
    executionPlan: null,
    createdAt: now,
    updatedAt: now,
    version: 0,
    ...request,
  };
  await store.intents.insert(intent);
  await e.submit(intent);
  return intent;
}

/** Resolves with the intent once `e` publishes it final (or it already is). */
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

async function usdcHoldings(address: Address, chain: ChainName): Promise<{ balance: bigint; aave: bigint }> {
  const [h] = await chains.port.holdings(address, [chain]);
  return {
    balance: h?.tokens.find((t) => t.asset === 'USDC')?.balance ?? 0n,
    aave: h?.positions.find((p) => p.protocol === 'aave-v3' && p.asset === 'USDC')?.amount ?? 0n,
  };
}

beforeAll(async () => {
  chains = await startChains({
    chainMode: 'sandbox',
    sandboxManifestPath: process.env.SANDBOX_MANIFEST,
    sandboxBlockTimeMs: 0,
    rpcUrls: {},
    protocols: PROTOCOLS_WITHOUT_PERMITS,
    // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
    sandboxAccountModels: PLAIN_ACCOUNT_MODELS,
  });
  store = createMemoryStore();
  keyVault = createKeyVault({ masterKey: randomBytes(32), keys: store.walletKeys });
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
  await chains?.stop();
});

describe('engine on the sandbox devnets', () => {
  test('behavior: lend with funds on the named chain → direct-deposit: approve + supply mined, aToken position, gas in USD', async () => {
    const e = engine();
    const w = await newWallet();
    await mintUsdc('base-sepolia', w.address, usdc('50'));
    const done = await settled(e, (await submit(e, w.id, { amount: '20', chain: 'base-sepolia' })).id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('direct-deposit');
    expect(done.results?.completedSteps).toBe(1);
    expect(done.results?.transactions).toHaveLength(2);
    for (const t of done.results!.transactions) {
      expect(t).toMatchObject({ chain: 'base-sepolia', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), status: 'confirmed' });
      expect(BigInt(t.gasUsed!)).toBeGreaterThan(21_000n);
      expect(t.gasCostUsd).toBeGreaterThan(0);
    }
    expect(BigInt(done.results!.totalGasUsed)).toBeGreaterThan(0n);
    const after = await usdcHoldings(w.address, 'base-sepolia');
    expect(after.balance).toBe(usdc('30'));
    expect(after.aave).toBeGreaterThanOrEqual(usdc('20'));
  });

  test('behavior: lend with funds on another chain → single-bridge: burn, attestation, relayer mint, deposit of what arrives after the route fee', async () => {
    const e = engine();
    const w = await newWallet();
    await mintUsdc('arbitrum-sepolia', w.address, usdc('10'));
    const done = await settled(e, (await submit(e, w.id, { amount: '10', chain: 'base-sepolia' })).id);

    expect(done.status).toBe('completed');
    expect(done.executionPlan?.strategy).toBe('single-bridge');
    const fee = cctpFee(usdc('10'), SANDBOX_TEST_FEE_BPS);
    expect(toUnits(done.amount, 'USDC')).toBe(usdc('10') - fee);
    expect(done.executionPlan?.steps[0]).toMatchObject({ type: 'bridge', maxFee: done.executionPlan?.steps[0]?.fee, minFinalityThreshold: 1000 });
    expect(done.results).toMatchObject({ finalAmount: done.amount, bridgeFees: done.executionPlan?.steps[0]?.fee });
    expect(done.results?.transactions.map((t) => `${(t as { kind?: string }).kind}@${t.chain}`)).toEqual([
      'approve@arbitrum-sepolia',
      'burn@arbitrum-sepolia',
      'mint@base-sepolia',
      'approve@base-sepolia',
      'supply@base-sepolia',
    ]);
    expect((await usdcHoldings(w.address, 'arbitrum-sepolia')).balance).toBe(0n);
    expect((await usdcHoldings(w.address, 'base-sepolia')).aave).toBeGreaterThanOrEqual(usdc('10') - fee);

    const back = await settled(e, (await submit(e, w.id, { action: 'withdraw', amount: '5', chain: 'base-sepolia' })).id);
    expect(back.status).toBe('completed');
    expect(back.executionPlan?.strategy).toBe('direct-withdraw');
    expect((await usdcHoldings(w.address, 'base-sepolia')).balance).toBe(usdc('5'));
  });

  test("behavior: the fast fee rises between a lend's planning and its mint → the burn is attested standard (its maxFee no longer covers fast), the lend completes and supplies all that arrived", async () => {
    // An attestation service of this test's own (same attester key, so the transmitters accept it), whose fees it may change.
    const iris = await startIrisServer({
      chains: Object.values(manifest.chains).map((d) => ({
        chain: d!.chain,
        domain: CHAINS[d!.chain].cctpDomain,
        rpcUrl: d!.rpcUrl,
        messageTransmitter: d!.messageTransmitter,
      })),
      attesterKey: SANDBOX_KEYS.attester,
      feesBps: { fast: SANDBOX_TEST_FEE_BPS, standard: 0 },
    });
    const own = createViemChainPort({
      manifest: { ...manifest, attestationApi: iris.url },
      keys: { gasTank: SANDBOX_KEYS.gasTank, faucet: SANDBOX_KEYS.faucet },
      pollingIntervalMs: 50,
    });
    try {
      const raising: ChainPort = {
        ...own,
        send: async (signer, tx, onSigned) => {
          const sent = await own.send(signer, tx, onSigned);
          // planned at the fast fee of before; the service first sees the burn after this
          if (tx.kind === 'burn') iris.setFees({ fast: SANDBOX_TEST_FEE_BPS * 10 });
          return sent;
        },
      };
      const e = engine({ chains: raising });
      const w = await newWallet();
      await mintUsdc('arbitrum-sepolia', w.address, usdc('10'));
      const done = await settled(e, (await submit(e, w.id, { amount: '10', chain: 'base-sepolia' })).id);

      expect(done.error).toBeUndefined();
      expect(done.status).toBe('completed');
      const planned = cctpFee(usdc('10'), SANDBOX_TEST_FEE_BPS);
      expect(done.executionPlan?.steps[0]).toMatchObject({ type: 'bridge', maxFee: fromUnits(planned, 'USDC'), minFinalityThreshold: 1000, fee: '0' });
      // what arrived (all of it: standard is free here) is supplied, not the planned amount, and the intent's amount and
      // its deposit step say so (they are what moved)
      expect(toUnits(done.amount, 'USDC')).toBe(usdc('10'));
      expect(done.executionPlan?.steps[1]).toMatchObject({ type: 'deposit', amount: '10' });
      expect(done.results).toMatchObject({ finalAmount: '10', bridgeFees: '0' });
      const after = await usdcHoldings(w.address, 'base-sepolia');
      expect(after.balance).toBe(0n);
      expect(after.aave).toBeGreaterThanOrEqual(usdc('10'));
      expect(after.aave).toBeLessThan(usdc('10.01'));
    } finally {
      await own.close();
      await iris.close();
    }
  });

  test('error: an injected bridge revert → BRIDGE_FAILED with failedStep 1; the funds stay on the source chain', async () => {
    const e = engine();
    const w = await newWallet();
    await mintUsdc('ethereum-sepolia', w.address, usdc('3'));
    chains.controls!.registerFault({ chain: 'ethereum-sepolia', kind: 'bridge-revert', count: 1 });
    const done = await settled(e, (await submit(e, w.id, { action: 'bridge', amount: '3', fromChain: 'ethereum-sepolia', toChain: 'arbitrum-sepolia' })).id);

    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'BRIDGE_FAILED', details: { step: 1, kind: 'burn' } });
    expect(done.results).toMatchObject({ failedStep: 1, completedSteps: 0 });
    expect((await usdcHoldings(w.address, 'ethereum-sepolia')).balance).toBe(usdc('3'));
  });

  test('behavior: restart between persisting a supply and broadcasting it → the next engine rebroadcasts the same signed bytes; one supply on chain', async () => {
    const { w, intent, persisted, supply } = await lendAndDieBeforeSupplyBroadcast('7');
    expect(persisted?.status).toBe('executing');
    expect(supply).toMatchObject({ status: 'signed' });
    expect(await chains.port.receipt('base-sepolia', supply!.txHash as `0x${string}`, 1_000)).toBeNull();

    const second = engine();
    expect((await second.start()).resumed).toBeGreaterThanOrEqual(1);
    const done = await settled(second, intent.id);
    expect(done.status).toBe('completed');
    const final = done.results?.transactions.filter((t) => (t as { kind?: string }).kind === 'supply');
    expect(final).toHaveLength(1);
    expect(final?.[0]?.txHash).toBe(supply!.txHash);
    expect((await usdcHoldings(w.address, 'base-sepolia')).aave).toBeGreaterThanOrEqual(usdc('7'));
  });

  test('behavior: restart after a persisted supply whose nonce another transaction then used → the supply is signed again, once, and lands', async () => {
    const { w, intent, supply: lost } = await lendAndDieBeforeSupplyBroadcast('6');
    expect(lost).toMatchObject({ status: 'signed' });

    // Meanwhile the wallet's next nonce is used by another transaction: the persisted bytes can never land.
    const d = sandboxChain(manifest, 'base-sepolia');
    const account = await keyVault.signer(w.id);
    const other = createWalletClient({ account, chain: viemChainFor('base-sepolia', d.rpcUrl), transport: http(d.rpcUrl, { retryCount: 0 }) });
    await other.sendTransaction({ to: w.address, value: 0n });

    const second = engine();
    await second.start();
    const done = await settled(second, intent.id);
    expect(done.status).toBe('completed');
    const supplies = done.results?.transactions.filter((t) => (t as { kind?: string }).kind === 'supply');
    expect(supplies).toHaveLength(1);
    expect(supplies?.[0]?.txHash).not.toBe(lost!.txHash);
    expect(await chains.port.receipt('base-sepolia', lost!.txHash as `0x${string}`, 500)).toBeNull();
    const aave = (await usdcHoldings(w.address, 'base-sepolia')).aave;
    expect(aave).toBeGreaterThanOrEqual(usdc('6') - 1n);
    expect(aave).toBeLessThan(usdc('6.01'));
  });

  test('behavior: the store refusing intent writes from the burn receipt until a restart → the intent stays open; the restarted engine mints and deposits; no USDC missing', async () => {
    const w = await newWallet();
    await mintUsdc('arbitrum-sepolia', w.address, usdc('4'));
    const update = store.intents.update.bind(store.intents);
    let refused = 0;
    const burnConfirmed = (i: Intent) =>
      i.results?.transactions.some((t) => (t as { kind?: string; status?: string }).kind === 'burn' && (t as { status?: string }).status === 'confirmed');
    // A database that lost its primary: every intent write carrying the burn receipt fails until the restart.
    store.intents.update = async (i, v) => {
      if (burnConfirmed(i)) {
        refused++;
        throw new Error('MongoServerSelectionError: no primary (injected)');
      }
      return update(i, v);
    };
    const first = engine({ resume: { baseMs: 20, maxMs: 100 } });
    const intent = await submit(first, w.id, { amount: '4', chain: 'base-sepolia' });
    try {
      for (let n = 0; n < 1500 && refused < 3; n++) await new Promise((r) => setTimeout(r, 20));
      expect(refused).toBeGreaterThanOrEqual(3);
      await first.stop();
    } finally {
      store.intents.update = update;
    }
    const open = await store.intents.get(intent.id);
    expect(open?.status).toBe('executing');
    // The burn is on chain: the source no longer holds the 4 USDC, nothing has reached base-sepolia yet.
    expect((await usdcHoldings(w.address, 'arbitrum-sepolia')).balance).toBe(0n);

    const second = engine();
    await second.start();
    const done = await settled(second, intent.id);
    expect(done.status).toBe('completed');
    const fee = cctpFee(usdc('4'), SANDBOX_TEST_FEE_BPS);
    const aave = (await usdcHoldings(w.address, 'base-sepolia')).aave;
    expect(aave).toBeGreaterThanOrEqual(usdc('4') - fee - 1n);
    expect(aave).toBeLessThan(usdc('4') - fee + usdc('0.01'));
    expect((await usdcHoldings(w.address, 'base-sepolia')).balance).toBe(0n);
  });
});
