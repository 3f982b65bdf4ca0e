import { readFileSync } from 'node:fs';
import type { ChainName } from '../../src/domain/chains';
import type { ChainDeployment, SandboxManifest } from '../../src/ports/deploymentManifest';

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

/** The deployment of `chain` in `manifest`; throws if the sandbox does not run that chain. */
export function sandboxChain(manifest: SandboxManifest, chain: ChainName): ChainDeployment {
  const deployment = manifest.chains[chain];
  if (!deployment) throw new Error(`sandbox has no ${chain}`);
  return deployment;
}
