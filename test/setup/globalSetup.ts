import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/chain/sandbox/sandbox';
import { SANDBOX_TEST_FEE_BPS, type SandboxGlobalState } from './sandbox';

/**
 * Jest globalSetup: start the sandbox (devnets + contracts) once per run and publish the manifest
 * path in SANDBOX_MANIFEST (workers inherit the parent's env). If SANDBOX_MANIFEST is already set,
 * that sandbox is used and nothing is started.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.SANDBOX_MANIFEST) return;
  const sandbox = await startSandbox({ feeBps: SANDBOX_TEST_FEE_BPS });
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-manifest-'));
  const manifestPath = join(dir, 'manifest.json');
  writeFileSync(manifestPath, `${JSON.stringify(sandbox.manifest, null, 2)}\n`);
  process.env.SANDBOX_MANIFEST = manifestPath;
  const state: SandboxGlobalState = { stop: sandbox.stop, dir };
  (globalThis as { __SANDBOX__?: SandboxGlobalState }).__SANDBOX__ = state;
  console.log(
    `\nsandbox: ${Object.keys(sandbox.manifest.chains).join(', ')} up in ${sandbox.timings.devnetsMs} ms, deployed in ${sandbox.timings.deployMs} ms`,
  );
}
