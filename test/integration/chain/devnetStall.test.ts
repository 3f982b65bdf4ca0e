import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicClient, createWalletClient, http, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { SANDBOX_KEYS } from '../../../src/chain/sandbox/accounts';
import { startDevnets, type Devnets } from '../../../src/chain/sandbox/devnets';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';

/**
 * A sandbox stall ends on the devnet's side: the service that asked for it
 * is killed (SIGKILL) during the stall, and the devnet mines again after the
 * stall's seconds all the same, back to one block per transaction.
 */
const CHAIN = 'base-sepolia';
const STALL_SECONDS = 2;
let devnets: Devnets;
let child: ChildProcess | undefined;

beforeAll(async () => {
  devnets = await startDevnets({ chains: [CHAIN] });
}, 60_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await devnets?.stop();
});

/** A separate process (the service's part: createSandboxControls) that stalls the chain, prints the answer and then idles until killed. */
function stallFromAnotherProcess(rpcUrl: string, seconds: number): Promise<{ resumesAt: string }> {
  const script = `
    const { createPublicClient, http } = require('viem');
    const { createSandboxControls } = require('./src/chain/viem/sandboxControls');
    const { FaultRegistry } = require('./src/domain/sandboxFaults');
    const rpcUrl = process.env.STALL_RPC_URL;
    const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
    const controls = createSandboxControls({
      client: () => ({ deployment: { rpcUrl }, client }),
      deployerKey: process.env.STALL_KEY,
      faucetKey: process.env.STALL_KEY,
      faults: new FaultRegistry(),
    });
    controls.stall(${JSON.stringify(CHAIN)}, Number(process.env.STALL_SECONDS)).then(
      (r) => { process.stdout.write(JSON.stringify(r) + '\\n'); setInterval(() => {}, 60_000); },
      (e) => { process.stderr.write(String(e)); process.exit(1); },
    );`;
  child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: process.cwd(),
    env: { ...process.env, STALL_RPC_URL: rpcUrl, STALL_KEY: SANDBOX_KEYS.deployer, STALL_SECONDS: String(seconds) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child!.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
    });
    child!.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child!.once('exit', (code) => reject(new Error(`stalling process exited (${code}): ${err}`)));
  });
}

function killed(c: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGKILL');
  });
}

test('behavior: a stall ends on the devnet after its seconds although the process that asked for it was killed (SIGKILL), and automine is back', async () => {
  const rpcUrl = devnets.chains[CHAIN]!.rpcUrl;
  const chain = viemChainFor(CHAIN, rpcUrl);
  const reader = createPublicClient({ chain, transport: http(rpcUrl, { retryCount: 0 }) });
  const wallet = createWalletClient({ chain, account: privateKeyToAccount(SANDBOX_KEYS.treasury), transport: http(rpcUrl, { retryCount: 0 }) });
  const send = (): Promise<Hex> => wallet.sendTransaction({ to: privateKeyToAccount(SANDBOX_KEYS.faucet).address, value: parseEther('0.001') });
  const mined = async (hash: Hex): Promise<boolean> => (await reader.getTransactionReceipt({ hash }).catch(() => null)) !== null;

  const started = Date.now();
  const { resumesAt } = await stallFromAnotherProcess(rpcUrl, STALL_SECONDS);
  expect(Date.parse(resumesAt)).toBeGreaterThan(started);
  await killed(child!);
  const during = await send();
  await new Promise((r) => setTimeout(r, 300));
  expect(await mined(during)).toBe(false);

  // the stall's seconds and a margin: mined by the devnet alone
  const deadline = Date.parse(resumesAt) + 5_000;
  while (!(await mined(during)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(await mined(during)).toBe(true);
  // one block per transaction again: the next one is mined as it is sent
  const after = await send();
  await new Promise((r) => setTimeout(r, 300));
  expect(await mined(after)).toBe(true);
}, 30_000);
