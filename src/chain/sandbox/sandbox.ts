import type { ChainName } from '../../domain/chains';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS, type SandboxRole } from './accounts';
import { deploySandbox } from './deploy';
import { setBlockTime, startDevnets } from './devnets';
import type { SandboxManifest } from './manifest';
import type { Hex } from 'viem';

/** The chains a sandbox runs by default. */
export const DEFAULT_SANDBOX_CHAINS: readonly ChainName[] = ['ethereum-sepolia', 'arbitrum-sepolia', 'base-sepolia'];

/** Options of startSandbox. */
export interface SandboxOptions {
  chains?: readonly ChainName[];
  /** Interval mining (ms per block) after deployment; default: one block per transaction. */
  blockTimeMs?: number;
  /** Bridge fee in basis points on every route (default 0). */
  feeBps?: number;
  /** Chain i listens on basePort + i; default: free ports. */
  basePort?: number;
}

/** A running sandbox: devnets with the contracts deployed. */
export interface Sandbox {
  manifest: SandboxManifest;
  /** Sandbox-only private keys by role (deployer, faucet, gasTank, attester). */
  keys: Readonly<Record<SandboxRole, Hex>>;
  /** Milliseconds spent starting the devnets and deploying. */
  timings: { devnetsMs: number; deployMs: number };
  stop(): Promise<void>;
}

/** Start local devnets and deploy the sandbox contracts (the faucet may mint every token). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const devnets = await startDevnets({ chains: options.chains ?? DEFAULT_SANDBOX_CHAINS, basePort: options.basePort });
  try {
    const deployStarted = Date.now();
    const manifest = await deploySandbox({
      chains: devnets.chains,
      deployerKey: SANDBOX_KEYS.deployer,
      attesterAddress: SANDBOX_ADDRESSES.attester,
      feeBps: options.feeBps,
      minters: [SANDBOX_ADDRESSES.faucet],
    });
    const deployMs = Date.now() - deployStarted;
    const blockTimeMs = options.blockTimeMs;
    if (blockTimeMs !== undefined && blockTimeMs > 0) {
      await Promise.all(Object.values(devnets.chains).map((c) => setBlockTime(c.rpcUrl, blockTimeMs)));
    }
    return { manifest, keys: SANDBOX_KEYS, timings: { devnetsMs: devnets.startupMs, deployMs }, stop: devnets.stop };
  } catch (err) {
    await devnets.stop();
    throw err;
  }
}
