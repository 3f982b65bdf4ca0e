import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/chain/sandbox/sandbox';
import { SANDBOX_TEST_FEE_BPS, type SandboxGlobalState } from './sandbox';
import { mongoBinary, startTestMongo } from './mongoServer';
import { startSoftHsmLane } from './softhsmLane';

/**
 * Jest globalSetup: start the sandbox (devnets + contracts) once per run and publish the manifest
 * path in SANDBOX_MANIFEST (workers inherit the parent's env). If SANDBOX_MANIFEST is already set,
 * that sandbox is used and nothing is started.
 */
export default async function globalSetup(): Promise<void> {
  startSoftHsmLane();
  await startMongoLane();
  if (process.env.SANDBOX_MANIFEST) return;
  const sandbox = await startSandbox({ fastFeeBps: SANDBOX_TEST_FEE_BPS });
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

/**
 * The MongoDB lane: unless MONGODB_URI names a server, a MongoDB-compatible
 * test server (jongodb, single-node replica set) is started for the run, so
 * every Mongo contract suite runs in every `npm test`. Without the optional
 * binary (another platform) the suites print their skip line.
 */
async function startMongoLane(): Promise<void> {
  if (process.env.MONGODB_URI) {
    console.log(`\nmongo: using MONGODB_URI`);
    return;
  }
  const binary = mongoBinary();
  if (!binary) {
    console.log('\nmongo: no test server binary on this platform (optional dependency); Mongo suites skip');
    return;
  }
  const started = Date.now();
  const mongo = await startTestMongo(binary);
  // The driver's streaming server monitor (an exhaust hello) broke on this server under a loaded
  // machine ("Server ended moreToCome unexpectedly"), clearing the pool mid-suite: poll instead.
  process.env.MONGODB_URI = withQueryOption(mongo.uri, 'serverMonitoringMode', 'poll');
  (globalThis as { __MONGO__?: { stop(): Promise<void> } }).__MONGO__ = mongo;
  console.log(`\nmongo: test server ${process.env.MONGODB_URI} up in ${Date.now() - started} ms`);
}

/** `uri` with `name=value` added to its query string. */
function withQueryOption(uri: string, name: string, value: string): string {
  const [base, query] = uri.split('?') as [string, string | undefined];
  const params = new URLSearchParams(query ?? '');
  params.set(name, value);
  return `${base.includes('/', 'mongodb://'.length) ? base : `${base}/`}?${params.toString()}`;
}
