/**
 * Several engines ("service instances") on one store and one set of devnets,
 * for bench/scaleOut.ts. Built as test/integration/engine/scaleOut.suite.ts
 * builds them: each engine has its own chain port (nonces from the shared
 * store's allocator), key vault and change-feed bus over the one memory store,
 * and a lease owner id of its own. An engine is killed abruptly by freezing
 * its views of the store and of its chain port (test/helpers/freezable.ts):
 * nothing it started settles any more, as with a killed process.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http, type Address } from 'viem';
import { createKeyVault } from '../../src/chain/keyVault';
import { sandboxTokenAbi } from '../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES } from '../../src/chain/sandbox/accounts';
import { startSandbox, type Sandbox } from '../../src/chain/sandbox/sandbox';
import { viemChainFor } from '../../src/chain/sandbox/viemChains';
import { startChains, type RunningChains } from '../../src/chain/startChains';
import type { ChainName } from '../../src/domain/chains';
import { createSystemClock } from '../../src/domain/clock';
import { isFinal, type Intent } from '../../src/domain/intent';
import type { Wallet } from '../../src/domain/types';
import { toUnits } from '../../src/domain/money';
import { createChangeFeedBus, type ChangeFeedBus } from '../../src/engine/changeFeedBus';
import { createEngine, type Engine } from '../../src/engine/engine';
import { silentLogger } from '../../src/engine/engineLogger';
import { createIntentBus } from '../../src/engine/eventBus';
import { isSubTxRecord } from '../../src/domain/txRecords';
import { createMemoryStore } from '../../src/store/memory/memoryStore';
import type { IntentLeaseRepo, NonceRepo, Store } from '../../src/ports/store';
import { freezable } from '../../test/helpers/freezable';

export const ALL_CHAINS: readonly ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];
const ACCOUNT = 'acct_bench_scale_out';

/** The bench's own devnets (contracts deployed, no bridge fee) and a manifest file the engines' chain ports attach to. */
export interface Devnets {
  sandbox: Sandbox;
  manifestPath: string;
  stop(): Promise<void>;
}

export async function startDevnets(): Promise<Devnets> {
  const sandbox = await startSandbox({ fastFeeBps: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-out-'));
  const manifestPath = join(dir, 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify(sandbox.manifest));
  return {
    sandbox,
    manifestPath,
    async stop() {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One engine of a cluster. */
export interface Instance {
  name: string;
  engine: Engine;
  owner: string;
  /** Stops the instance abruptly: its store and chain calls never settle from now on. */
  kill(): void;
  readonly killed: boolean;
}

/** A lease granted by the shared store (observed on the engines' way to it). */
export interface LeaseGrant {
  intentId: string;
  owner: string;
  /** Date.now() when the grant came back. */
  at: number;
}

/** Engines over one fresh memory store, on the given devnets. */
export interface Cluster {
  store: Store;
  instances: Instance[];
  /** Transactions re-signed because another sender used their nonce first (the chain ports' onNonceRetry), since the cluster started. */
  readonly nonceRetries: number;
  /** Every lease acquisition the store granted, in order (renewals of one's own lease included). */
  readonly grants: readonly LeaseGrant[];
  /** Date.now() of each owner's last lease renewal that came back. */
  readonly lastRenewal: ReadonlyMap<string, number>;
  /** What the shared nonce allocator handed out (every engine's chain port takes its nonces there). */
  readonly nonceStats: NonceStats;
  startInstance(name: string): Promise<Instance>;
  /** A new wallet (key in the store's vault, record in the store) holding `amount` USDC on `chain`, minted by the node-managed faucet account. */
  fundedWallet(chain: ChainName, amount: string): Promise<{ id: string; address: Address }>;
  /** Persists a new lend intent of `walletId` and submits it to `instance`'s engine. */
  submit(instance: Instance, walletId: string, request: { amount: string; chain: ChainName }): Promise<Intent>;
  /** Resolves once the store holds every one of `ids` final (polled every `pollMs`); throws after `timeoutMs`. */
  allFinal(ids: readonly string[], timeoutMs: number, pollMs?: number): Promise<Intent[]>;
  /** Live engines stop cleanly (killed ones are left as they are); every chain port and bus stops. */
  stop(): Promise<void>;
}

/** Counts of the shared nonce allocator's answers since the cluster started. */
export interface NonceStats {
  /** Nonces taken (gas tank / relayer, faucet, wallets; every chain). */
  taken: number;
  /** Of them, nonces of the signers every engine shares (the gas tank, which is also the relayer, and the faucet). */
  shared: number;
  /**
   * Nonces handed out above the chain's pending nonce: lower ones were out
   * with another engine and not on chain yet, so this transaction waited for
   * them (polling the chain every 50 ms). An engine alone never waits: its
   * sends of one account go one after another under a lock.
   */
  waited: number;
  /**
   * Nonces handed out again without having been given back: a gap (a nonce
   * taken and never sent, as a killed engine leaves) the allocator
   * re-synchronised over, at once when the gap was older than the gap wait,
   * else after waiting it out.
   */
  resynced: number;
  /** Of them, nonces of the shared signers. */
  sharedResynced: number;
}

export interface ClusterOptions {
  /** The lease period of every engine (the engine's default, 15 000 ms, when absent). */
  leaseMs?: number;
  /** Sent transactions not mined this long are rebroadcast (the service's sandbox default: 5 s). */
  txStuckAfterMs?: number;
  /** How long a nonce taken and never sent holds the account's later transactions before the allocator re-synchronises (the chain port's default: 5 s). */
  nonceGapMs?: number;
}

export function createCluster(devnets: Devnets, options: ClusterOptions = {}): Cluster {
  const store = createMemoryStore();
  const masterKey = randomBytes(32);
  const instances: Instance[] = [];
  const running: { bus: ChangeFeedBus; chains: RunningChains; instance: Instance }[] = [];
  const grants: LeaseGrant[] = [];
  const lastRenewal = new Map<string, number>();
  let nonceRetries = 0;
  const nonceStats: NonceStats = { taken: 0, shared: 0, waited: 0, resynced: 0, sharedResynced: 0 };
  const sharedSigners = [SANDBOX_ADDRESSES.gasTank, SANDBOX_ADDRESSES.faucet].map((a) => a.toLowerCase());
  const highest = new Map<string, number>();
  const givenBack = new Map<string, number>();
  /** The store's allocator, counted. */
  const nonces: NonceRepo = {
    async take(key, chainPending, nowMs, gapMs) {
      const nonce = await store.nonces.take(key, chainPending, nowMs, gapMs);
      const shared = sharedSigners.some((a) => key.endsWith(`:${a}`));
      nonceStats.taken++;
      if (shared) nonceStats.shared++;
      if (nonce > chainPending) nonceStats.waited++;
      if (nonce <= (highest.get(key) ?? -1) && givenBack.get(key) !== nonce) {
        nonceStats.resynced++;
        if (shared) nonceStats.sharedResynced++;
      }
      givenBack.delete(key);
      highest.set(key, Math.max(nonce, highest.get(key) ?? -1));
      return nonce;
    },
    async giveBack(key, nonce) {
      await store.nonces.giveBack(key, nonce);
      givenBack.set(key, nonce);
    },
    chainStillSince: (key, chainPending) => store.nonces.chainStillSince(key, chainPending),
  };

  /** The lease repo as one engine sees it (the other methods as they are), with what the store grants it recorded. */
  const observed = (repo: IntentLeaseRepo): IntentLeaseRepo => ({
    ...repo,
    acquire: async (id, owner, nowMs, untilMs) => {
      const ok = await repo.acquire(id, owner, nowMs, untilMs);
      if (ok) grants.push({ intentId: id, owner, at: Date.now() });
      return ok;
    },
    renew: async (owner, untilMs) => {
      const held = await repo.renew(owner, untilMs);
      lastRenewal.set(owner, Date.now());
      return held;
    },
  });

  async function mintUsdc(chain: ChainName, to: Address, amount: bigint): Promise<void> {
    const d = devnets.sandbox.manifest.chains[chain]!;
    const transport = http(d.rpcUrl, { retryCount: 0 });
    const viemChain = viemChainFor(chain, d.rpcUrl);
    // The faucet account is one the node manages (eth_sendTransaction): the node assigns its nonces, so mints may run in parallel.
    const faucet = createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain: viemChain, transport });
    const hash = await faucet.writeContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] });
    await createPublicClient({ chain: viemChain, transport, pollingInterval: 20 }).waitForTransactionReceipt({ hash });
  }

  return {
    store,
    instances,
    get nonceRetries() {
      return nonceRetries;
    },
    grants,
    lastRenewal,
    nonceStats,

    async startInstance(name) {
      const chains = await startChains(
        { chainMode: 'sandbox', sandboxManifestPath: devnets.manifestPath, sandboxBlockTimeMs: 0, rpcUrls: {}, nonceGapMs: options.nonceGapMs },
        // As in the test, the port takes nonces from the shared store itself, not through the engine's freezable view: a send already
        // under way when its engine is killed may still take one, then hangs on persisting it; either way the nonce is taken and never
        // sent, the gap a crashed process leaves for the others.
        { nonces: () => nonces, onNonceRetry: () => nonceRetries++ },
      );
      const storeView = freezable(store);
      const portView = freezable(chains.port);
      const owner = `engine_${name}_${randomBytes(3).toString('hex')}`;
      let self: Engine | undefined;
      // As the service does: the engine publishes what it runs itself; the feed brings what the others run.
      const bus = await createChangeFeedBus(createIntentBus(), store.intentChanges!, { publishedHere: (id) => self?.holds(id) ?? false });
      const engine = (self = createEngine({
        store: storeView.view,
        chains: portView.view,
        keyVault: createKeyVault({ masterKey, keys: storeView.view.walletKeys }),
        clock: createSystemClock(),
        logger: silentLogger,
        bus,
        txStuckAfterMs: options.txStuckAfterMs ?? 5_000,
        leases: { repo: observed(storeView.view.intentLeases), owner, leaseMs: options.leaseMs },
      }));
      await engine.start();
      const instance: Instance = {
        name,
        engine,
        owner,
        kill() {
          storeView.freeze();
          portView.freeze();
        },
        get killed() {
          return storeView.frozen;
        },
      };
      instances.push(instance);
      running.push({ bus, chains, instance });
      return instance;
    },

    async fundedWallet(chain, amount) {
      const id = `svc_wallet_${randomBytes(16).toString('hex')}`;
      const address = await createKeyVault({ masterKey, keys: store.walletKeys }).createKey(id);
      const wallet: Wallet = {
        id,
        accountId: ACCOUNT,
        userId: id,
        address,
        evmAddress: address,
        chainType: 'ethereum',
        chains: [...ALL_CHAINS],
        email: null,
        metadata: {},
        createdAt: new Date().toISOString(),
      };
      await store.wallets.insert(wallet);
      await mintUsdc(chain, address, toUnits(amount, 'USDC'));
      return { id, address };
    },

    async submit(instance, walletId, request) {
      const now = new Date().toISOString();
      const intent: Intent = {
        id: `intent_${randomBytes(16).toString('hex')}`,
        accountId: ACCOUNT,
        walletId,
        status: 'pending',
        action: 'lend',
        asset: 'USDC',
        amount: request.amount,
        requestedAmount: request.amount,
        chain: request.chain,
        executionPlan: null,
        createdAt: now,
        updatedAt: now,
        version: 0,
      };
      await store.intents.insert(intent);
      await instance.engine.submit(intent);
      return intent;
    },

    async allFinal(ids, timeoutMs, pollMs = 50) {
      const until = Date.now() + timeoutMs;
      const done = new Map<string, Intent>();
      for (;;) {
        for (const id of ids) {
          if (done.has(id)) continue;
          const intent = await store.intents.get(id);
          if (intent && isFinal(intent.status)) done.set(id, intent);
        }
        if (done.size === ids.length) return ids.map((id) => done.get(id)!);
        if (Date.now() > until) throw new Error(`${ids.length - done.size} of ${ids.length} intents not final after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, pollMs));
      }
    },

    async stop() {
      // Killed engines are left as they are (their calls never settle); the others stop cleanly and hand their leases back.
      await Promise.all(running.filter((r) => !r.instance.killed).map((r) => r.instance.engine.stop()));
      for (const r of running) {
        await r.bus.stop();
        await r.chains.stop();
      }
    },
  };
}

/** created → final of an intent from its own timestamps (completedAt, else the last update), ms. */
export const latencyMs = (i: Intent): number => finalAt(i) - Date.parse(i.createdAt);
/** When an intent became final (completedAt, else its last update), ms since the epoch. */
export const finalAt = (i: Intent): number => Date.parse(i.completedAt ?? i.updatedAt);

/** The wallet's own transactions an intent recorded on `chain` (mints are the relayer's). */
export const walletTxsOn = (intent: Intent, chain: ChainName): number =>
  (intent.results?.transactions ?? []).filter((t) => isSubTxRecord(t) && t.chain === chain && t.kind !== 'mint').length;

/** The wallet's transaction count on `chain` (latest block). */
export async function transactionCount(devnets: Devnets, chain: ChainName, address: Address): Promise<number> {
  const d = devnets.sandbox.manifest.chains[chain]!;
  return createPublicClient({ chain: viemChainFor(chain, d.rpcUrl), transport: http(d.rpcUrl) }).getTransactionCount({ address, blockTag: 'latest' });
}

/**
 * Transactions on chain that no record accounts for, over `wallets` and their
 * final intents: per wallet and chain, the on-chain nonce minus the wallet
 * transactions its intents recorded. A transaction signed twice and mined
 * twice shows here; `missing` counts the other way (recorded, not on chain).
 */
export async function unrecordedTransactions(
  devnets: Devnets,
  wallets: readonly { id: string; address: Address }[],
  intents: readonly Intent[],
): Promise<{ onChain: number; recorded: number; extra: number; missing: number }> {
  let onChain = 0;
  let recorded = 0;
  let extra = 0;
  let missing = 0;
  for (const w of wallets) {
    const mine = intents.filter((i) => i.walletId === w.id);
    for (const chain of ALL_CHAINS) {
      const count = await transactionCount(devnets, chain, w.address);
      const rec = mine.reduce((n, i) => n + walletTxsOn(i, chain), 0);
      onChain += count;
      recorded += rec;
      extra += Math.max(0, count - rec);
      missing += Math.max(0, rec - count);
    }
  }
  return { onChain, recorded, extra, missing };
}

/** Records of one intent with the same step and kind (a sub-transaction recorded twice). */
export function duplicateRecords(intent: Intent): number {
  const seen = new Set<string>();
  let dup = 0;
  for (const t of intent.results?.transactions ?? []) {
    if (!isSubTxRecord(t)) continue;
    const key = `${t.step}:${t.kind}:${t.chain}`;
    if (seen.has(key)) dup++;
    seen.add(key);
  }
  return dup;
}
