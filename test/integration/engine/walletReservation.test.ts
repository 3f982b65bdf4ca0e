import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { createKeyVault } from '../../../src/chain/keyVault';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES } from '../../../src/chain/sandbox/accounts';
import { startSandbox, type Sandbox } from '../../../src/chain/sandbox/sandbox';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { startChains, type RunningChains } from '../../../src/chain/startChains';
import { createSystemClock } from '../../../src/domain/clock';
import { isFinal, type Intent } from '../../../src/domain/intent';
import { toUnits } from '../../../src/domain/money';
import { createEngine, type Engine } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import { createMemoryStore } from '../../../src/store/memory/memoryStore';
import type { ChainPort } from '../../../src/ports/chain';
import type { Store } from '../../../src/ports/store';
import { walletRecord } from '../../unit/engine/intentFixture';

/**
 * Two engines on one store (two instances on one database, as in
 * scaleOut.suite.ts) plan for the same wallet at the same moment: the second
 * must see what the first committed, so the wallet's funds are never planned
 * twice. Each wallet actor is per process, so the store has to say it.
 */
let sandbox: Sandbox;
let dir: string;
const store: Store = createMemoryStore();
const masterKey = randomBytes(32);
const running: { engine: Engine; chains: RunningChains }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ fastFeeBps: 0 });
  dir = mkdtempSync(join(tmpdir(), 'wallet-reservation-'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(sandbox.manifest));
}, 120_000);
afterAll(async () => {
  await Promise.all(running.map((r) => r.engine.stop()));
  for (const r of running) await r.chains.stop();
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await store.close();
});

/** An engine with its own chain port and lease owner over the shared store (through `storeView` and `chainView`, which let the test pace its reads). */
async function startInstance(name: string, storeView: Store, chainView: (port: ChainPort) => ChainPort = (port) => port): Promise<Engine> {
  const chains = await startChains(
    { chainMode: 'sandbox', sandboxManifestPath: join(dir, 'manifest.json'), sandboxBlockTimeMs: 0, rpcUrls: {} },
    { nonces: () => store.nonces },
  );
  const engine = createEngine({
    store: storeView,
    chains: chainView(chains.port),
    keyVault: createKeyVault({ masterKey, keys: store.walletKeys }),
    clock: createSystemClock(),
    logger: silentLogger,
    retry: { baseMs: 50, maxMs: 500 },
    resume: { baseMs: 100, maxMs: 1_000 },
    leases: { repo: storeView.intentLeases, owner: `engine_${name}_${randomBytes(3).toString('hex')}`, leaseMs: 3_000 },
  });
  await engine.start();
  running.push({ engine, chains });
  return engine;
}

async function fundedWallet(amount: string): Promise<{ id: string; address: Address }> {
  const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
  const address = await createKeyVault({ masterKey, keys: store.walletKeys }).createKey(id);
  await store.wallets.insert(walletRecord(id, address, 'acct_reservation'));
  const d = sandbox.manifest.chains['base-sepolia']!;
  const chain = viemChainFor('base-sepolia', d.rpcUrl);
  const transport = http(d.rpcUrl, { retryCount: 0 });
  const hash = await createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain, transport }).writeContract({
    address: d.tokens.USDC!,
    abi: sandboxTokenAbi,
    functionName: 'mint',
    args: [address, toUnits(amount, 'USDC')],
  });
  await createPublicClient({ chain, transport, pollingInterval: 20 }).waitForTransactionReceipt({ hash });
  return { id, address };
}

function lend(walletId: string, amount: string): Intent {
  const now = new Date().toISOString();
  return {
    id: `intent_${randomBytes(16).toString('hex')}`,
    accountId: 'acct_reservation',
    walletId,
    status: 'pending',
    action: 'lend',
    asset: 'USDC',
    amount,
    requestedAmount: amount,
    chain: 'base-sepolia',
    executionPlan: null,
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
}

async function finalIntent(id: string): Promise<Intent> {
  const until = Date.now() + 30_000;
  for (;;) {
    const intent = await store.intents.get(id);
    if (intent && isFinal(intent.status)) return intent;
    if (Date.now() > until) throw new Error(`intent ${id} not final: ${intent?.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('error: two engines planning for one wallet at once → one lends the funds, the other fails INSUFFICIENT_FUNDS in planning with nothing signed', async () => {
  // Both planners read the wallet's reservations (their first read, before the holdings) and go on only once the other has too, as two
  // instances planning at the same moment would; a planner refused the wallet's planning lease in the store counts as there (it waits).
  let aArrived!: () => void;
  let bArrived!: () => void;
  const aThere = new Promise<void>((r) => (aArrived = r));
  const bThere = new Promise<void>((r) => (bArrived = r));
  const view = (arrived: () => void, other: Promise<void>): Store => ({
    ...store,
    intents: {
      ...store.intents,
      listByWallet: async (...args) => {
        arrived();
        await other;
        return store.intents.listByWallet(...args);
      },
    },
    intentLeases: {
      ...store.intentLeases,
      acquire: async (...args) => {
        const ok = await store.intentLeases.acquire(...args);
        if (!ok && args[0].startsWith('walletplan:')) arrived();
        return ok;
      },
    },
  });
  const a = await startInstance('a', view(aArrived, bThere));
  const b = await startInstance('b', view(bArrived, aThere));

  const w = await fundedWallet('10');
  const first = lend(w.id, '10');
  const second = lend(w.id, '10');
  await store.intents.insert(first);
  await store.intents.insert(second);
  await a.submit(first);
  // B starts once A is planning (its holdings read is under way)
  for (let n = 0; n < 400 && (await store.intents.get(first.id))?.status !== 'planning'; n++) await new Promise((r) => setTimeout(r, 10));
  await b.submit(second);

  const results = [await finalIntent(first.id), await finalIntent(second.id)];
  const completed = results.filter((i) => i.status === 'completed');
  const failed = results.filter((i) => i.status === 'failed');
  expect(completed).toHaveLength(1);
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatchObject({ executionPlan: null, error: { code: 'INSUFFICIENT_FUNDS' } });
  expect(failed[0]!.results?.transactions ?? []).toEqual([]);
}, 60_000);

test("error: the first engine's lend completes while the second reads the wallet's holdings → the second fails INSUFFICIENT_FUNDS in planning with nothing signed", async () => {
  // The second engine's holdings read answers while the first's lend has its plan committed and nothing signed (its first
  // transaction's record waits for that read); the second's reservation reads after its holdings wait until the lend is
  // final: the holdings still show the 10 USDC the lend has just supplied, and no executing intent holds them any more.
  let secondReadHoldings!: () => void;
  const holdingsRead = new Promise<void>((r) => (secondReadHoldings = r));
  let afterHoldings = false;
  let firstId = '';
  const a = await startInstance('a', {
    ...store,
    intents: {
      ...store.intents,
      update: async (intent, expectedVersion) => {
        if (intent.id === firstId && (intent.results?.transactions.length ?? 0) > 0) await holdingsRead;
        return store.intents.update(intent, expectedVersion);
      },
    },
  });
  const b = await startInstance(
    'b',
    {
      ...store,
      intents: {
        ...store.intents,
        listByWallet: async (...args) => {
          if (afterHoldings) await finalIntent(firstId);
          return store.intents.listByWallet(...args);
        },
      },
    },
    (port) => ({
      ...port,
      holdings: async (...args) => {
        const read = await port.holdings(...args);
        afterHoldings = true;
        secondReadHoldings();
        return read;
      },
    }),
  );

  const w = await fundedWallet('10');
  const first = lend(w.id, '10');
  const second = lend(w.id, '10');
  firstId = first.id;
  await store.intents.insert(first);
  await store.intents.insert(second);
  await a.submit(first);
  // B plans once A's plan is committed (A no longer holds the wallet's planning lease soon after)
  for (let n = 0; n < 400 && (await store.intents.get(first.id))?.status !== 'executing'; n++) await new Promise((r) => setTimeout(r, 10));
  await b.submit(second);

  const [lent, refused] = [await finalIntent(first.id), await finalIntent(second.id)];
  expect(lent.status).toBe('completed');
  expect(refused).toMatchObject({ status: 'failed', executionPlan: null, error: { code: 'INSUFFICIENT_FUNDS' } });
  expect(refused.results?.transactions ?? []).toEqual([]);
}, 60_000);
