import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { createKeyVault } from '../../../src/chain/keyVault';
import type { ChainPort } from '../../../src/ports/chain';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES } from '../../../src/chain/sandbox/accounts';
import { startSandbox, type Sandbox } from '../../../src/chain/sandbox/sandbox';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { startChains, type RunningChains } from '../../../src/chain/startChains';
import type { ChainName } from '../../../src/domain/chains';
import { createSystemClock } from '../../../src/domain/clock';
import { isFinal, type Intent } from '../../../src/domain/intent';
import { toUnits } from '../../../src/domain/money';
import { createChangeFeedBus } from '../../../src/engine/changeFeedBus';
import { createEngine, type Engine } from '../../../src/engine/engine';
import { silentLogger } from '../../../src/engine/engineLogger';
import { createIntentBus } from '../../../src/engine/eventBus';
import type { SharedBus } from '../../../src/engine/sharedBus';
import { isSubTxRecord } from '../../../src/domain/txRecords';
import type { Store } from '../../../src/ports/store';
import { freezable } from '../../helpers/freezable';
import { walletRecord } from '../../unit/engine/intentFixture';
import { PLAIN_ACCOUNT_MODELS } from '../../setup/sandbox';

/** Where the engines keep their state: one store for the test's own reads and writes, and each engine's connection to it. */
export interface ScaleOutStores {
  /** The store the test reads and writes through. */
  shared(): Promise<Store>;
  /** One engine's store: the same data (memory: the same store; MongoDB: its own client on the same database). */
  instance(): Promise<Store>;
  close(): Promise<void>;
}

/**
 * Several engines on one store and one set of devnets, as several service
 * instances on one database would be (docs/operations.md, "Several
 * instances"): each has its own chain port, key vault, bus and lease owner id;
 * they share the store (leases, nonces, the intents' change feed) and the
 * chains. An engine "dies" by having its store and chain port frozen: from
 * that moment nothing it started completes and nothing new gets out, as with a
 * killed process. The devnets are the suite's own, so no other suite signs for
 * its gas tank. The same suite runs on the memory store and on MongoDB.
 */
export function describeScaleOut(lane: string, stores: ScaleOutStores): void {
  const LEASE_MS = 3_000;
  const ALL_CHAINS: ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];
  const usdc = (amount: string): bigint => toUnits(amount, 'USDC');

  let sandbox: Sandbox;
  let dir: string;
  let store: Store;
  const masterKey = randomBytes(32);
  const started: { engine: Engine; bus: SharedBus; chains: RunningChains; frozen: () => boolean }[] = [];
  let nonceRetries = 0;

  interface Instance {
    engine: Engine;
    bus: SharedBus;
    port: ChainPort;
    /** Stops the instance abruptly: its store and chain calls never settle from now on. */
    kill(): void;
  }

  /** One "instance": an engine with its own chain port, key vault and bus over the shared store. `wrapPort` lets a test arm a crash. */
  async function startInstance(name: string, wrapPort: (port: ChainPort, kill: () => void) => ChainPort = (p) => p): Promise<Instance> {
    const own = await stores.instance();
    const chains = await startChains(
      // the plain path (approve/supply transactions, top-ups, relayer mints): the 7702 path is userOperations.test.ts
      // A nonce counts as taken and never sent (a gap, re-synchronised) after 20 s here, not the default 5 s: on a loaded
      // CI machine one process running 100 intents may take more than 5 s from a nonce to its broadcast, and the
      // re-synchronisation then hands that nonce out again (a collision this test would count against the allocator).
      {
        chainMode: 'sandbox',
        sandboxManifestPath: join(dir, 'manifest.json'),
        sandboxBlockTimeMs: 0,
        rpcUrls: {},
        sandboxAccountModels: PLAIN_ACCOUNT_MODELS,
        nonceGapMs: 20_000,
      },
      { nonces: () => own.nonces, onNonceRetry: () => nonceRetries++ },
    );
    const storeView = freezable(own);
    const portView = freezable(chains.port);
    const kill = (): void => {
      storeView.freeze();
      portView.freeze();
    };
    let self: Engine | undefined;
    // As the service does: the engine publishes what it runs itself; the feed brings what the others run.
    const bus = await createChangeFeedBus(createIntentBus(), own.intentChanges!, { publishedHere: (id) => self?.holds(id) ?? false });
    const engine = (self = createEngine({
      store: storeView.view,
      chains: wrapPort(portView.view, kill),
      keyVault: createKeyVault({ masterKey, keys: storeView.view.walletKeys }),
      clock: createSystemClock(),
      logger: silentLogger,
      bus,
      retry: { baseMs: 50, maxMs: 500 },
      resume: { baseMs: 100, maxMs: 1_000 },
      leases: { repo: storeView.view.intentLeases, owner: `engine_${name}_${randomBytes(3).toString('hex')}`, leaseMs: LEASE_MS },
    }));
    await engine.start();
    started.push({ engine, bus, chains, frozen: () => storeView.frozen });
    return { engine, bus, port: chains.port, kill };
  }

  async function mintUsdc(chain: ChainName, to: Address, amount: bigint): Promise<void> {
    const d = sandbox.manifest.chains[chain]!;
    const transport = http(d.rpcUrl, { retryCount: 0 });
    const viemChain = viemChainFor(chain, d.rpcUrl);
    const faucet = createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain: viemChain, transport });
    const hash = await faucet.writeContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] });
    await createPublicClient({ chain: viemChain, transport, pollingInterval: 20 }).waitForTransactionReceipt({ hash });
  }

  async function transactionCount(chain: ChainName, address: Address): Promise<number> {
    const d = sandbox.manifest.chains[chain]!;
    return createPublicClient({ chain: viemChainFor(chain, d.rpcUrl), transport: http(d.rpcUrl) }).getTransactionCount({ address, blockTag: 'latest' });
  }

  async function fundedWallet(chain: ChainName, amount: string): Promise<{ id: string; address: Address }> {
    const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
    const address = await createKeyVault({ masterKey, keys: store.walletKeys }).createKey(id);
    await store.wallets.insert(walletRecord(id, address, 'acct_scale_out'));
    await mintUsdc(chain, address, usdc(amount));
    return { id, address };
  }

  async function submit(e: Engine, walletId: string, request: Partial<Intent> & Pick<Intent, 'amount'>): Promise<Intent> {
    const now = new Date().toISOString();
    const intent: Intent = {
      id: `intent_${randomBytes(16).toString('hex')}`,
      accountId: 'acct_scale_out',
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

  /** Resolves once the store holds `id` final (polled: the test must not depend on any one engine's bus). */
  async function finalIntent(id: string, timeoutMs: number): Promise<Intent> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const intent = await store.intents.get(id);
      if (intent && isFinal(intent.status)) return intent;
      if (Date.now() > until) throw new Error(`intent ${id} not final after ${timeoutMs} ms: ${intent?.status}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** USDC of `address` across every chain, in the wallet and in lending positions. */
  async function usdcEverywhere(port: ChainPort, address: Address): Promise<bigint> {
    let total = 0n;
    for (const h of await port.holdings(address, ALL_CHAINS)) {
      total += h.tokens.find((t) => t.asset === 'USDC')?.balance ?? 0n;
      for (const p of h.positions) if (p.asset === 'USDC') total += p.amount;
    }
    return total;
  }

  /** The wallet's own transactions the intent recorded on `chain` (mints are the relayer's). */
  const walletTxsOn = (intent: Intent, chain: ChainName): number =>
    (intent.results?.transactions ?? []).filter((t) => isSubTxRecord(t) && t.chain === chain && t.kind !== 'mint').length;

  beforeAll(async () => {
    sandbox = await startSandbox({ fastFeeBps: 0 });
    dir = mkdtempSync(join(tmpdir(), 'scale-out-'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(sandbox.manifest));
    store = await stores.shared();
  }, 120_000);

  afterAll(async () => {
    // Killed engines are left as they are (their calls never settle); the others stop cleanly.
    await Promise.all(started.filter((s) => !s.frozen()).map((s) => s.engine.stop()));
    for (const s of started) {
      s.bus.stop();
      await s.chains.stop();
    }
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await stores.close();
  });

  describe(`several engines on one store and one set of devnets: ${lane}`, () => {
    test.each([
      ['before its broadcast', 'signed'],
      ['after its broadcast, before its receipt', 'sent'],
    ] as const)(
      'behavior: an engine killed mid-lend with the supply signed and persisted (%s) → another engine finishes the intent within one lease period; the supply is on chain once; funds conserved',
      async (_when, killAt) => {
        let killedAt = 0;
        const victim = await startInstance('victim', (port, kill) => {
          const die = (): Promise<never> => {
            killedAt = Date.now();
            kill();
            return new Promise<never>(() => undefined);
          };
          return {
            ...port,
            send: (signer, tx, onSigned) =>
              port.send(signer, tx, async (signed) => {
                await onSigned(signed);
                // The process dies with the supply persisted: its bytes never reach the node.
                if (tx.kind === 'supply' && killAt === 'signed') await die();
              }),
            findReceipt: async (chain, hashes, waitMs) => {
              // The supply was sent (the port broadcast it before the engine follows it): the process dies waiting for its receipt.
              if (killAt === 'sent' && !killedAt && (await isSupplyOfVictim(hashes))) return die();
              return port.findReceipt(chain, hashes, waitMs);
            },
          };
        });
        const others = [await startInstance('b'), await startInstance('c')];
        const w = await fundedWallet('base-sepolia', '7');
        const before = await usdcEverywhere(others[0]!.port, w.address);
        const intent = await submit(victim.engine, w.id, { amount: '7', chain: 'base-sepolia' });

        for (let n = 0; n < 1_000 && killedAt === 0; n++) await new Promise((r) => setTimeout(r, 10));
        expect(killedAt).toBeGreaterThan(0);
        const persisted = await store.intents.get(intent.id);
        const supply = persisted?.results?.transactions.find((t) => isSubTxRecord(t) && t.kind === 'supply');
        expect(supply).toBeDefined();
        expect(persisted?.status).toBe('executing');

        const done = await finalIntent(intent.id, LEASE_MS * 3);
        const takeoverMs = Date.now() - killedAt;
        console.log(`takeover (${killAt}): intent completed ${takeoverMs} ms after its engine was killed (lease period ${LEASE_MS} ms)`);
        expect(done.status).toBe('completed');
        expect(takeoverMs).toBeLessThan(LEASE_MS);
        // the supply recorded when the victim died is the one mined: never signed again
        const supplies = done.results!.transactions.filter((t) => isSubTxRecord(t) && t.kind === 'supply');
        expect(supplies).toHaveLength(1);
        expect(supplies[0]!.txHash).toBe(supply!.txHash);
        // the chain shows each of the wallet's transactions once: its nonce is exactly what the intent recorded
        for (const chain of ALL_CHAINS) expect(await transactionCount(chain, w.address)).toBe(walletTxsOn(done, chain));
        const after = await usdcEverywhere(others[0]!.port, w.address);
        expect(after).toBeGreaterThanOrEqual(before);
        expect(after).toBeLessThan(before + usdc('0.01'));
        // and the takeover left no lease behind
        expect(await store.intentLeases.heldAmong([intent.id], Date.now())).toEqual(new Set());

        async function isSupplyOfVictim(hashes: readonly string[]): Promise<boolean> {
          const current = await store.intents.get(intent.id);
          return (current?.results?.transactions ?? []).some((t) => isSubTxRecord(t) && t.kind === 'supply' && hashes.includes(t.txHash));
        }
      },
      60_000,
    );

    test('behavior: 100 intents spread over 3 engines sharing the gas tank and relayer all complete, with 0 nonce collisions', async () => {
      const engines = [await startInstance('n1'), await startInstance('n2'), await startInstance('n3')];
      nonceRetries = 0;
      // 50 wallets, two lends each: one where the funds are, one needing a bridge (a relayer mint), spread over the engines
      const wallets = await Promise.all(Array.from({ length: 50 }, () => fundedWallet('arbitrum-sepolia', '4')));
      const intents: Intent[] = [];
      let n = 0;
      for (const w of wallets) {
        intents.push(await submit(engines[n++ % 3]!.engine, w.id, { amount: '1', chain: 'arbitrum-sepolia' }));
        intents.push(await submit(engines[n++ % 3]!.engine, w.id, { amount: '2', chain: 'base-sepolia' }));
      }
      const done = await Promise.all(intents.map((i) => finalIntent(i.id, 120_000)));
      const statuses = done.map((i) => `${i.status}${i.error ? `:${i.error.code}` : ''}`);
      expect(statuses.filter((s) => s !== 'completed')).toEqual([]);
      expect(nonceRetries).toBe(0);
      expect(done.filter((i) => (i.results?.transactions ?? []).some((t) => isSubTxRecord(t) && t.kind === 'mint')).length).toBeGreaterThanOrEqual(50);
    }, 180_000);

    test('behavior: a subscription through engine A sees every change of an intent run by engine B, in order', async () => {
      const [a, b] = [await startInstance('sub-a'), await startInstance('sub-b')];
      const w = await fundedWallet('base-sepolia', '3');
      const seen: Intent[] = [];
      const sub = a.bus.subscribe({ walletId: w.id });
      const reading = (async () => {
        for await (const i of sub) {
          seen.push(i);
          if (isFinal(i.status)) return;
        }
      })();
      const intent = await submit(b.engine, w.id, { amount: '3', chain: 'base-sepolia' });
      await reading;
      sub.close();
      const stored = await store.intents.get(intent.id);
      expect(stored?.status).toBe('completed');
      // B's changes in the order B wrote them (a slow reader may skip a snapshot, never reorder), through every status, ending final
      const versions = seen.map((i) => i.version);
      expect(versions).toEqual([...versions].sort((x, y) => x - y));
      expect(new Set(versions).size).toBe(versions.length);
      expect(versions.at(-1)).toBe(stored!.version);
      expect(seen.map((i) => i.status).filter((s, k, all) => s !== all[k - 1])).toEqual(['pending', 'planning', 'executing', 'completed']);
    }, 60_000);
  });
}
