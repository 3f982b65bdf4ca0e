import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/chain/sandbox/sandbox';
import { startTestServer, type TestServer } from './server';
import type { ProtocolRegistry } from '../../src/chain/protocols/registry';

/** A test server on devnets of its own (no route fees unless `options.feeBps`), for suites that change rates or kill nodes. */
export interface OwnSandboxServer {
  sandbox: Sandbox;
  srv: TestServer;
  stop(): Promise<void>;
}

/**
 * Starts fresh devnets and a service attached to them through a manifest
 * file, so what a suite does to its chains (rates, faults, killed nodes)
 * reaches no other suite. `stop` tolerates a start that failed half-way.
 */
export async function startOwnSandboxServer(
  env: Record<string, string> = {},
  options: { feeBps?: number; protocols?: ProtocolRegistry } = {},
): Promise<OwnSandboxServer> {
  const sandbox = await startSandbox({ fastFeeBps: options.feeBps ?? 0 });
  const dir = mkdtempSync(join(tmpdir(), 'own-sandbox-'));
  const stopAll = async (srv?: TestServer) => {
    await srv?.stop();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const manifestPath = join(dir, 'manifest.json');
    writeFileSync(manifestPath, JSON.stringify(sandbox.manifest));
    const srv = await startTestServer({ SANDBOX_MANIFEST: manifestPath, ...env }, options.protocols ? { protocols: options.protocols } : {});
    return { sandbox, srv, stop: () => stopAll(srv) };
  } catch (e) {
    await stopAll();
    throw e;
  }
}
