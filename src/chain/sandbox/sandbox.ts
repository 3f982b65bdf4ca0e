import type { ChainName } from '../../domain/chains';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS, type SandboxRole } from './accounts';
import { deploySandbox } from './deploy';
import { setBlockTime, startDevnets } from './devnets';
import type { SandboxManifest } from '../../ports/deploymentManifest';
import type { Address, Hex } from 'viem';
import type { SandboxAccountModels } from './accountModels';
import { CHAINS } from '../../domain/chains';
import { startIrisServer, type IrisServer } from './iris/irisServer';
import type { SandboxPace } from './timing';
import type { MarketLayout, SandboxMarketMode } from './marketLayout';
import type { ProtocolRegistry } from '../protocols/registry';

/** The chains a sandbox runs by default. */
export const DEFAULT_SANDBOX_CHAINS: readonly ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];

/** Options of startSandbox. */
export interface SandboxOptions {
  chains?: readonly ChainName[];
  /** Interval mining (ms per block) after deployment; default: one block per transaction. */
  blockTimeMs?: number;
  /** Per chain, instead of `blockTimeMs` and `attestationDelaysMs`: block times after deployment and attestation delays per source chain (testnetPace). */
  pace?: SandboxPace;
  /** Fee of a fast CCTP transfer in basis points on every route, as the attestation service's fee route answers (default 0; standard transfers are free). */
  fastFeeBps?: number;
  /** How long the attestation service keeps a burn pending, per finality level (default fast 20 ms, standard 100 ms: the real waits scaled down, in order). */
  attestationDelaysMs?: { fast?: number; standard?: number };
  /** Lending markets: the real test networks' layout plus sandbox-only Aave USDC markets (`all`, default), or exactly the real layout (`testnets`). */
  markets?: SandboxMarketMode;
  /** The chain layout of the markets (default: marketLayout.ts's) and the protocols' modules that deploy them (default: DEFAULT_PROTOCOLS). */
  layout?: MarketLayout;
  protocols?: ProtocolRegistry;
  /** Chain i listens on basePort + i; default: free ports. */
  basePort?: number;
  /** Address the devnets listen on (default 127.0.0.1); the manifest's RPC URLs stay reachable from this process. */
  host?: string;
  /** Each chain's account model in the manifest (default: DEFAULT_SANDBOX_ACCOUNT_MODEL everywhere). */
  accountModels?: SandboxAccountModels;
  /** The paymaster's owner and verifying signer: the service's gas tank (default: the sandbox's gas tank). */
  gasTank?: Address;
}

/** A running sandbox: devnets with the contracts deployed. */
export interface Sandbox {
  manifest: SandboxManifest;
  /** Sandbox-only private keys by role (deployer, faucet, gasTank, attester). */
  keys: Readonly<Record<SandboxRole, Hex>>;
  /** The Iris-compatible attestation service (its fees and outages are sandbox controls). */
  iris: IrisServer;
  /** Milliseconds spent starting the devnets and deploying. */
  timings: { devnetsMs: number; deployMs: number };
  /** Kills one chain's node outright (SIGKILL, as a crash would): an outage for whatever talks to it. */
  kill(chain: ChainName): Promise<void>;
  /**
   * Brings a chain back on the same port: a fresh node (a Hardhat node keeps
   * no state across a restart) with the contracts deployed again, at the same
   * addresses (they are deterministic), so the manifest still holds. Balances,
   * positions and transactions of before are gone.
   */
  restart(chain: ChainName): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Start local devnets and deploy the sandbox contracts (the faucet may mint
 * every token). A start on devnets of its own is tried once more from scratch
 * when it fails: on a machine busy enough for a node to drop a request, a
 * deployment of some 80 transactions per chain can lose one, and fresh
 * devnets make the second try clean. The first failure is written to stderr.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  try {
    return await startSandboxOnce(options);
  } catch (first) {
    // a fixed base port may still be held by the first try's nodes for a moment: only free ports are retried
    if (options.basePort !== undefined) throw first;
    process.stderr.write(
      `sandbox: start failed, trying once more on fresh devnets: ${first instanceof Error ? first.message.split('\n')[0] : String(first)}\n`,
    );
    return startSandboxOnce(options);
  }
}

async function startSandboxOnce(options: SandboxOptions): Promise<Sandbox> {
  const devnets = await startDevnets({ chains: options.chains ?? DEFAULT_SANDBOX_CHAINS, basePort: options.basePort, host: options.host });
  // Deploying is idempotent (existing code and settings are kept): a restarted chain gets its contracts back, the others are only read.
  const deploy = () =>
    deploySandbox({
      chains: devnets.chains,
      deployerKey: SANDBOX_KEYS.deployer,
      attesterAddress: SANDBOX_ADDRESSES.attester,
      minters: [SANDBOX_ADDRESSES.faucet],
      markets: options.markets,
      layout: options.layout,
      protocols: options.protocols,
      accountModels: options.accountModels,
      gasTank: options.gasTank,
    });
  // Deployment automines (some 80 transactions per chain would take minutes at 12 s blocks); the pace starts after it.
  const blockTimeOf = (chain: ChainName): number | undefined => options.pace?.blockTimeMs[chain] ?? options.blockTimeMs;
  const paceChain = async (chain: ChainName): Promise<void> => {
    const ms = blockTimeOf(chain);
    if (ms !== undefined && ms > 0) await setBlockTime(devnets.chains[chain]!.rpcUrl, ms);
  };
  let iris: IrisServer | undefined;
  try {
    const deployStarted = Date.now();
    const deployed = await deploy();
    // Attestations come over HTTP from an Iris-compatible service, as on the real networks: never from the service's own key.
    iris = await startIrisServer({
      chains: Object.values(deployed.chains).map((d) => ({
        chain: d!.chain,
        domain: CHAINS[d!.chain].cctpDomain,
        rpcUrl: d!.rpcUrl,
        messageTransmitter: d!.messageTransmitter,
      })),
      attesterKey: SANDBOX_KEYS.attester,
      feesBps: { fast: options.fastFeeBps ?? 0, standard: 0 },
      delaysMs: options.attestationDelaysMs,
      delaysBySourceMs: options.pace?.attestationDelayMs,
    });
    const manifest: SandboxManifest = { ...deployed, attestationApi: iris.url };
    const deployMs = Date.now() - deployStarted;
    await Promise.all((Object.keys(devnets.chains) as ChainName[]).map(paceChain));
    const running = iris;
    return {
      manifest,
      iris: running,
      keys: SANDBOX_KEYS,
      timings: { devnetsMs: devnets.startupMs, deployMs },
      kill: devnets.kill,
      async restart(chain) {
        await devnets.restart(chain);
        const again = await deploy();
        if (JSON.stringify(again.chains[chain]) !== JSON.stringify(manifest.chains[chain])) {
          throw new Error(`sandbox: ${chain} came back with other contract addresses than its manifest`);
        }
        await paceChain(chain);
      },
      async stop() {
        await running.close();
        await devnets.stop();
      },
    };
  } catch (err) {
    await iris?.close();
    await devnets.stop();
    throw err;
  }
}
