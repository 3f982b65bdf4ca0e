import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../src/chain/sandbox/sandbox';
import { startTestServer, type TestServer } from '../../helpers/server';
import { intentHttp, positionsOf, type IntentHttp } from '../engine/intentsHttpHelpers';
import { layout } from './fixture/layout';
import { protocols } from './fixture/registry';

/**
 * Adding a lending protocol touches nothing outside its module, a registry
 * line and the chain layout: the fixture directory holds exactly those (and
 * the module's own sandbox contract), and the service runs a lend and a
 * withdraw on the new protocol's market over REST, on devnets of its own.
 */
const FIXTURE = join(__dirname, 'fixture');

let sandbox: Sandbox | undefined;
let srv: TestServer | undefined;
let dir: string | undefined;
let api: IntentHttp;

beforeAll(async () => {
  sandbox = await startSandbox({ layout, protocols });
  dir = mkdtempSync(join(tmpdir(), 'third-protocol-'));
  const manifestPath = join(dir, 'manifest.json');
  writeFileSync(manifestPath, JSON.stringify(sandbox.manifest));
  srv = await startTestServer({ SANDBOX_MANIFEST: manifestPath }, { protocols });
  api = intentHttp(srv, (await srv.admin.createAccount({ plan: 'pro' })).key);
}, 240_000);

afterAll(async () => {
  await srv?.stop();
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('behavior: the third protocol is its module (with its sandbox contract), one registry line and one layout entry: the fixture holds every file it needed', () => {
  expect(readdirSync(FIXTURE).sort()).toEqual(['SimpleVault.sol', 'layout.ts', 'registry.ts', 'simpleVault.ts']);
});

test('behavior: a lend and a withdraw complete on the third protocol through REST, on the devnets', async () => {
  const w = await api.fundedWallet('third-protocol', { 'base-sepolia': '5' });
  const lent = await api.run({ walletId: w.id, action: 'lend', amount: '5', asset: 'USDC', chain: 'base-sepolia' });
  expect({ status: lent.status, error: lent.error }).toEqual({ status: 'completed', error: lent.error });
  expect(lent.executionPlan.steps).toEqual([
    expect.objectContaining({ type: 'deposit', chain: 'base-sepolia', protocol: 'simple-vault', status: 'completed' }),
  ]);
  expect(positionsOf(await api.balances(w.id))).toEqual(['simple-vault@base-sepolia']);

  const back = await api.run({ walletId: w.id, action: 'withdraw', amount: '5', asset: 'USDC', chain: 'base-sepolia' });
  expect({ status: back.status, error: back.error }).toEqual({ status: 'completed', error: back.error });
  expect(back.executionPlan.steps).toEqual([expect.objectContaining({ type: 'withdraw', protocol: 'simple-vault', status: 'completed' })]);
  expect(positionsOf(await api.balances(w.id))).toEqual([]);
});
