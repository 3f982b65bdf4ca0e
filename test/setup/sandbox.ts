import { readFileSync } from 'node:fs';
import type { ChainName } from '../../src/domain/chains';
import type { ChainDeployment, SandboxManifest } from '../../src/ports/deploymentManifest';
import { withSandboxAccountModels, type SandboxAccountModels } from '../../src/chain/sandbox/accountModels';

/** Bridge fee (bps, every route) of the sandbox the jest globalSetup starts. */
export const SANDBOX_TEST_FEE_BPS = 5;

/** What globalSetup hands to globalTeardown through globalThis. */
export interface SandboxGlobalState {
  stop(): Promise<void>;
  /** Temp directory holding the manifest file. */
  dir: string;
}

/** The manifest of the sandbox started by the jest globalSetup (path in SANDBOX_MANIFEST). */
export function loadSandboxManifest(): SandboxManifest {
  const path = process.env.SANDBOX_MANIFEST;
  if (!path) {
    throw new Error('SANDBOX_MANIFEST is not set: run with globalSetup test/setup/globalSetup.ts (see jest.config.js)');
  }
  return JSON.parse(readFileSync(path, 'utf8')) as SandboxManifest;
}

/**
 * Every chain on the plain path (transactions, top-ups, relayer mints), whatever
 * the sandbox's default account model: `sandboxAccountModels` of startChains,
 * or SANDBOX_ACCOUNT_MODEL: 'plain' where a service is started.
 */
export const PLAIN_ACCOUNT_MODELS: SandboxAccountModels = { default: 'plain', chains: {} };

/** loadSandboxManifest() with every chain's accountModel 'plain' (for a chain port or engine built on it). */
export function loadPlainSandboxManifest(): SandboxManifest {
  return withSandboxAccountModels(loadSandboxManifest(), PLAIN_ACCOUNT_MODELS);
}

/** The deployment of `chain` in `manifest`; throws if the sandbox does not run that chain. */
export function sandboxChain(manifest: SandboxManifest, chain: ChainName): ChainDeployment {
  const deployment = manifest.chains[chain];
  if (!deployment) throw new Error(`sandbox has no ${chain}`);
  return deployment;
}
