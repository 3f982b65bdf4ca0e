import { readFileSync } from 'node:fs';
import { parseEther, parseUnits, type Address, type Hex } from 'viem';
import { TEST_CHAINS, type ChainName } from '../domain/chains';
import { createSystemClock, type Clock } from '../domain/clock';
import type { ChainPort } from '../ports/chain';
import type { SandboxManifest } from '../ports/deploymentManifest';
import { startSandbox } from './sandbox/sandbox';
import { parseManifest } from './sandbox/manifestSchema';
import { withInjectedReverts } from './sandbox/injectedReverts';
import type { ProtocolRegistry } from './protocols/registry';
import type { SandboxMarketMode } from './sandbox/marketLayout';
import { withSandboxAccountModels, type SandboxAccountModels } from './sandbox/accountModels';
import { testnetPace, type SandboxPace, type SandboxTiming } from './sandbox/timing';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS, SANDBOX_NATIVE_BALANCE_WEI } from './sandbox/accounts';
import type { ServiceAccounts } from './viem/serviceAccounts';
import { createViemChainPort, type ServiceKeys } from './viem/createViemChainPort';
import type { ChainClient } from './viem/chainClients';
import { createSandboxControls } from './viem/sandboxControls';
import type { SandboxControls } from '../ports/sandboxControls';
import { readHoldings } from './viem/readHoldings';
import { verifyMarketTokens } from './viem/verifyMarkets';
import type { RpcObserver } from './viem/observedTransport';
import type { NonceRepo } from '../ports/store';
import { readChainClocks, type ChainClock } from './viem/clockOffsets';
import { IRIS_SANDBOX_URL } from './cctp/attestationClient';

export interface ChainsConfig {
  chainMode: 'sandbox' | 'rpc';
  /** Attach to devnets already running (tests) instead of starting new ones. */
  sandboxManifestPath?: string;
  sandboxBlockTimeMs: number;
  /** A sandbox started here at the test networks' pace (`testnets`), `speed` times faster; default instant. */
  sandboxTiming?: { timing: SandboxTiming; speed: number };
  /** Sandbox lending markets: the real layout plus sandbox-only USDC markets (`all`, default), or exactly the real one (`testnets`). */
  sandboxMarkets?: SandboxMarketMode;
  /** Sandbox: each chain's account model, set on the started sandbox's manifest and on a loaded one (absent: the manifest's own). */
  sandboxAccountModels?: SandboxAccountModels;
  /** One JSON-RPC request waits this long at most. */
  rpcTimeoutMs?: number;
  /** rpc mode: deployment manifest, per-chain RPC URL overrides and the service's keys. */
  chainManifestPath?: string;
  rpcUrls: Partial<Record<ChainName, string>>;
  serviceKeys?: ServiceKeys;
  /** The gas tank's and faucet's accounts from the key provider (default: accounts over `serviceKeys`, or the sandbox's keys). */
  serviceAccounts?: ServiceAccounts;
  /** Other service addresses the sandbox funds with native gas (the x402 settler of a token). */
  fundAddresses?: Address[];
  /** rpc mode: base URL of the CCTP attestation service; default Circle's testnet service (Iris). */
  attestationApiUrl?: string;
  /** How long a shared signer's nonce gap (taken, never sent) holds its later transactions before the allocator re-synchronises (default 5 s). */
  nonceGapMs?: number;
  /** The lending protocols' modules (default: DEFAULT_PROTOCOLS): the manifest's markets are checked, read and called with them. */
  protocols?: ProtocolRegistry;
}

export interface RunningChains {
  port: ChainPort;
  /** The viem client and deployment of a configured chain (for the x402 facilitator, which drives its own transactions). */
  client(chain: ChainName): ChainClient | undefined;
  /** Present in sandbox mode only. */
  controls: SandboxControls | null;
  manifest: SandboxManifest;
  startupMs: number;
  /** Each chain's latest block time against the wall clock (readiness and metrics). */
  clocks(): Promise<ChainClock[]>;
  /** Whether the attestation service (the manifest's `attestationApi`) answers its fee route now. */
  attestationServiceAnswers(): Promise<boolean>;
  stop(): Promise<void>;
}

/** The port's client of `chain`, or undefined when the chain is not configured. */
const clientOrNone =
  (port: { chains: readonly ChainName[]; client(chain: ChainName): ChainClient }) =>
  (chain: ChainName): ChainClient | undefined =>
    port.chains.includes(chain) ? port.client(chain) : undefined;

/**
 * Native gas a wallet is topped up with before it transacts: a lend with a bridge is
 * about five transactions of ≈ 0.0001 ETH each on the devnets, so 0.003 ETH covers
 * several intents without handing users a noticeable balance.
 */
const GAS = { minGasWei: parseEther('0.001'), topUpWei: parseEther('0.003') };

/** The faucet's USDC stock on the demo chain, minted at sandbox start when it runs low. */
const FAUCET_STOCK = parseUnits('1000000', 6);

function readManifest(path: string, protocols?: ProtocolRegistry): SandboxManifest {
  return parseManifest(JSON.parse(readFileSync(path, 'utf8')), path, protocols);
}

/** What the composition root observes of the chains (metrics). */
export interface ChainHooks {
  /** Every JSON-RPC request of the chain port. */
  onRpc?: RpcObserver;
  /**
   * The store's nonce allocator (gas tank and relayer, faucet, wallets),
   * asked at each send: the store starts beside the chains,
   * so it may answer undefined at first (the node's pending nonce is used then).
   */
  nonces?: () => NonceRepo | undefined;
  /** A transaction re-signed because another sender used its nonce first. */
  onNonceRetry?: (chain: ChainName, address: Address) => void;
  /** The service's clock (default: the system clock): receipt polls, nonce waits, fee caches and the chains' clock offsets tell time by it. */
  clock?: Clock;
}

const portOptions = (cfg: ChainsConfig, hooks: ChainHooks, clock: Clock) => ({
  clock,
  protocols: cfg.protocols,
  rpcTimeoutMs: cfg.rpcTimeoutMs,
  nonceGapMs: cfg.nonceGapMs,
  onRpc: hooks.onRpc,
  nonces: hooks.nonces,
  onNonceRetry: hooks.onNonceRetry,
});

/** Starts (or attaches to) the sandbox devnets, or connects to configured RPC endpoints, and builds the chain port. */
export async function startChains(cfg: ChainsConfig, hooks: ChainHooks = {}): Promise<RunningChains> {
  const clock = hooks.clock ?? createSystemClock();
  const started = clock.monotonicMs();
  if (cfg.chainMode === 'rpc') {
    if (!cfg.chainManifestPath || (!cfg.serviceKeys && !cfg.serviceAccounts)) throw new Error('CHAIN_MODE=rpc needs CHAIN_MANIFEST and the service keys');
    const manifest = readManifest(cfg.chainManifestPath, cfg.protocols);
    // Attestations come from Circle's service (or a compatible one): the service holds no attester key.
    manifest.attestationApi = cfg.attestationApiUrl ?? manifest.attestationApi ?? IRIS_SANDBOX_URL;
    for (const [name, url] of Object.entries(cfg.rpcUrls)) {
      const d = manifest.chains[name as ChainName];
      if (d && url) d.rpcUrl = url;
    }
    const port = createViemChainPort({
      manifest,
      accounts: cfg.serviceAccounts,
      keys: cfg.serviceKeys,
      pollingIntervalMs: 2_000,
      ...portOptions(cfg, hooks, clock),
      ...GAS,
    });
    await refuseMislabelledMarkets(port);
    return {
      port,
      client: clientOrNone(port),
      controls: null,
      manifest,
      startupMs: Math.round(clock.monotonicMs() - started),
      ...readiness(port, manifest, clock),
      stop: () => port.close(),
    };
  }

  const pace = sandboxPace(cfg);
  const sandbox = cfg.sandboxManifestPath
    ? null
    : await startSandbox({
        blockTimeMs: cfg.sandboxBlockTimeMs,
        pace,
        markets: cfg.sandboxMarkets,
        protocols: cfg.protocols,
        accountModels: cfg.sandboxAccountModels,
        gasTank: cfg.serviceAccounts?.gasTank.address,
      });
  const loaded = sandbox?.manifest ?? readManifest(cfg.sandboxManifestPath!, cfg.protocols);
  const manifest = cfg.sandboxAccountModels ? withSandboxAccountModels(loaded, cfg.sandboxAccountModels) : loaded;
  const keys: ServiceKeys = { gasTank: SANDBOX_KEYS.gasTank, faucet: SANDBOX_KEYS.faucet };
  const port = withInjectedReverts(
    createViemChainPort({ manifest, accounts: cfg.serviceAccounts, keys, pollingIntervalMs: 50, ...portOptions(cfg, hooks, clock), ...GAS }),
  );
  const controls = createSandboxControls({
    client: port.client,
    deployerKey: SANDBOX_KEYS.deployer,
    faucetKey: SANDBOX_KEYS.faucet as Hex,
    faults: port.faults,
    blockTimeMs: cfg.sandboxBlockTimeMs,
    blockTimesMs: pace?.blockTimeMs,
  });
  // Service keys other than the sandbox's well-known ones (a PKCS#11 token's) get the sandbox accounts' native balance.
  const faucet = cfg.serviceAccounts?.faucet.address ?? SANDBOX_ADDRESSES.faucet;
  const own = [cfg.serviceAccounts?.gasTank.address, cfg.serviceAccounts?.faucet.address, ...(cfg.fundAddresses ?? [])].filter((a) => a !== undefined);
  await fundServiceAddresses(port, own);
  const demo = port.client('arbitrum-sepolia');
  const stock = (await readHoldings(demo, faucet)).tokens.find((t) => t.asset === 'USDC')?.balance ?? 0n;
  if (stock < FAUCET_STOCK / 2n) await controls.mint({ chain: 'arbitrum-sepolia', asset: 'USDC', address: faucet, amount: FAUCET_STOCK });
  return {
    port,
    client: clientOrNone(port),
    controls,
    manifest,
    startupMs: Math.round(clock.monotonicMs() - started),
    ...readiness(port, manifest, clock),
    async stop() {
      await port.close();
      await sandbox?.stop();
    },
  };
}

/** The pace of a sandbox started with SANDBOX_TIMING=testnets (its three test networks), else none: instant. */
function sandboxPace(cfg: ChainsConfig): SandboxPace | undefined {
  if (cfg.sandboxTiming?.timing !== 'testnets') return undefined;
  return testnetPace(TEST_CHAINS, cfg.sandboxTiming.speed);
}

/** Sets each address's native balance on every devnet to the sandbox accounts' (once: one already funded is left as it is). */
async function fundServiceAddresses(port: { chains: readonly ChainName[]; client(chain: ChainName): ChainClient }, addresses: Address[]): Promise<void> {
  const known = new Set<string>(Object.values(SANDBOX_ADDRESSES).map((a) => a.toLowerCase()));
  const own = addresses.filter((a) => !known.has(a.toLowerCase()));
  await Promise.all(
    port.chains.flatMap((chain) =>
      own.map(async (address) => {
        const c = port.client(chain).client;
        if ((await c.getBalance({ address })) >= SANDBOX_NATIVE_BALANCE_WEI / 2n) return;
        await c.request({ method: 'hardhat_setBalance' as never, params: [address, `0x${SANDBOX_NATIVE_BALANCE_WEI.toString(16)}`] as never });
      }),
    ),
  );
}

/**
 * rpc mode starts only when every market of the manifest lends the token it
 * names (checked on chain). A chain that cannot be read now is not a reason
 * to refuse: its markets are reported as unchecked on stderr.
 */
async function refuseMislabelledMarkets(port: { chains: readonly ChainName[]; client(chain: ChainName): ChainClient; close(): Promise<void> }): Promise<void> {
  const results = await Promise.all(
    port.chains.map((chain) =>
      verifyMarketTokens(port.client(chain)).catch((err: unknown) => {
        process.stderr.write(`chains: the markets of ${chain} could not be checked now: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
        return [];
      }),
    ),
  );
  const problems = results.flat();
  if (problems.length > 0) {
    await port.close();
    throw new Error(`CHAIN_MANIFEST lists markets that lend another token than it names:\n  ${problems.join('\n  ')}`);
  }
}

/** What readiness reads of the chains, the same in both modes. */
function readiness(
  port: { chains: readonly ChainName[]; client(chain: ChainName): ChainClient },
  manifest: SandboxManifest,
  clock: Pick<Clock, 'now'>,
): Pick<RunningChains, 'clocks' | 'attestationServiceAnswers'> {
  return {
    clocks: () =>
      readChainClocks(
        port.chains.map((c) => port.client(c)),
        () => clock.now().getTime(),
      ),
    attestationServiceAnswers: () => answersFeeRoute(manifest.attestationApi),
  };
}

/**
 * One read of the attestation service's fee route (Ethereum → Base): whether
 * it answers at all. An outage delays bridges (their mints wait and are
 * retried) and nothing else, so it is reported, not made a readiness failure.
 */
async function answersFeeRoute(baseUrl: string | undefined): Promise<boolean> {
  if (!baseUrl) return false;
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/v2/burn/USDC/fees/0/6`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(3_000),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
