/**
 * One set of sandbox chains for several service instances (compose.scale.yaml):
 * starts the devnets, deploys the contracts and writes the manifest the
 * instances attach to (their SANDBOX_MANIFEST), then runs until SIGTERM or
 * SIGINT. Every instance must see the same chains, so they cannot each start
 * their own as a lone service does.
 *
 *   npm run sandbox:chains                          # 127.0.0.1:8545…8547, manifest in .sandbox/manifest.json
 *   node dist/scripts/sandbox-chains.js --check     # exit 0 when the manifest is there and every chain answers
 *
 * Environment (all optional):
 *   SANDBOX_MANIFEST_OUT   where the manifest is written (default .sandbox/manifest.json)
 *   SANDBOX_HOST           address the devnets listen on (default 127.0.0.1; 0.0.0.0 in a container)
 *   SANDBOX_PUBLIC_HOST    host name in the manifest's RPC URLs, as the instances reach the chains
 *                          (default: SANDBOX_HOST, or 127.0.0.1 when that is 0.0.0.0)
 *   SANDBOX_BASE_PORT      chain i listens on this port + i (default 8545)
 *   SANDBOX_BLOCK_TIME_MS  interval mining, as for the service (default 0: a block per transaction)
 *   SANDBOX_MARKETS        the lending markets, as for the service (all, the default, or testnets)
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { startSandbox } from '../src/chain/sandbox/sandbox';
import type { SandboxManifest } from '../src/ports/deploymentManifest';

const env = process.env;
const manifestPath = resolve(env.SANDBOX_MANIFEST_OUT || '.sandbox/manifest.json');
const host = env.SANDBOX_HOST || '127.0.0.1';
const publicHost = env.SANDBOX_PUBLIC_HOST || (host === '0.0.0.0' ? '127.0.0.1' : host);
const basePort = Number(env.SANDBOX_BASE_PORT || 8545);
const blockTimeMs = Number(env.SANDBOX_BLOCK_TIME_MS || 0);
const markets = env.SANDBOX_MARKETS === 'testnets' ? 'testnets' : 'all';

/** The manifest with every RPC URL's host replaced by the one the instances use. */
function published(manifest: SandboxManifest): SandboxManifest {
  const chains = Object.fromEntries(
    Object.entries(manifest.chains).map(([name, d]) => {
      const url = new URL(d.rpcUrl);
      url.hostname = publicHost;
      return [name, { ...d, rpcUrl: url.origin }];
    }),
  );
  return { ...manifest, chains };
}

async function main(): Promise<void> {
  // A manifest left by an earlier run names chains that are gone: no instance may attach to it.
  rmSync(manifestPath, { force: true });
  const sandbox = await startSandbox({ host, basePort, blockTimeMs, markets });
  mkdirSync(dirname(manifestPath), { recursive: true });
  // Written whole, then renamed: an instance polling for the file never reads half of it.
  const tmp = `${manifestPath}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(published(sandbox.manifest), null, 2)}\n`);
  renameSync(tmp, manifestPath);
  const urls = Object.values(published(sandbox.manifest).chains).map((d) => `${d.chain} ${d.rpcUrl}`);
  console.log(`sandbox chains up (listening on ${host}): ${urls.join(', ')}; manifest ${manifestPath}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the sandbox chains`);
    rmSync(manifestPath, { force: true });
    sandbox.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // As PID 1 in a container, node has no default signal handling: without these, `docker stop` waits and kills.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Health check: the manifest is there and every chain in it answers with its chain id. */
async function check(): Promise<void> {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SandboxManifest;
  const chains = Object.values(manifest.chains);
  if (chains.length === 0) throw new Error('the manifest lists no chain');
  await Promise.all(
    chains.map(async (d) => {
      const res = await fetch(d.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(2_000),
      });
      const body = (await res.json()) as { result?: string };
      if (Number(body.result) !== d.chainId) throw new Error(`${d.chain} at ${d.rpcUrl} answered ${JSON.stringify(body)}`);
    }),
  );
}

if (process.argv.includes('--check')) {
  check().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`sandbox chains not ready: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
