import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPublicClient, http, parseEther, toHex, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { servicePaymasterAbi } from '../../../src/chain/sandbox/abis';
import { parseManifest } from '../../../src/chain/sandbox/manifestSchema';
import { ERC4337_V08 } from '../../../src/chain/sandbox/erc4337/canonical';
import { loadSandboxManifest, sandboxChain } from '../../setup/sandbox';

/**
 * `npm run paymaster:deploy` against a devnet, as an operator runs it against
 * a test network: CHAIN_MODE=rpc, the gas tank from the key provider (here
 * GAS_TANK_KEY, a fresh key of this test so no shared nonce is touched).
 */
const ROOT = join(__dirname, '../../..');
const manifest = loadSandboxManifest();
const d = sandboxChain(manifest, 'base-sepolia');
const client = createPublicClient({ transport: http(d.rpcUrl) });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function paymasterDeploy(args: string[], gasTankKey: string): Promise<Run> {
  // the service's own rpc-mode environment, as an operator has it (a MongoDB URI too: the command never connects to it)
  const env = {
    ...process.env,
    MONGODB_URI: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:1/unused',
    CHAIN_MODE: 'rpc',
    CHAIN_MANIFEST: join(ROOT, 'deploy/testnets.json'),
    KEY_VAULT_MASTER_KEY: generatePrivateKey().slice(2),
    KEY_PROVIDER: 'local',
    GAS_TANK_KEY: gasTankKey,
    FAUCET_KEY: generatePrivateKey(),
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'scripts/paymaster-deploy.ts', ...args],
      {
        cwd: ROOT,
        env,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test("behavior: it deploys ServicePaymaster for the canonical EntryPoint with the gas tank as owner and verifying signer, deposits --deposit, and prints the chain's manifest lines, which pass the manifest check", async () => {
  const gasTankKey = generatePrivateKey();
  const gasTank = privateKeyToAccount(gasTankKey).address;
  await client.request({ method: 'hardhat_setBalance' as never, params: [gasTank, toHex(parseEther('10'))] as never });

  const run = await paymasterDeploy(['--chain', 'base-sepolia', '--rpc-url', d.rpcUrl, '--deposit', '2.5'], gasTankKey);
  expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = JSON.parse(`{${run.stdout}}`) as { accountModel: string; erc4337: { entryPoint: Address; delegate: Address; paymaster: Address } };
  expect(lines).toEqual({ accountModel: '7702', erc4337: { ...ERC4337_V08, paymaster: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) } });

  const paymaster = lines.erc4337.paymaster;
  const read = <F extends 'verifyingSigner' | 'owner' | 'entryPoint' | 'getDeposit'>(functionName: F) =>
    client.readContract({ address: paymaster, abi: servicePaymasterAbi, functionName });
  expect(await read('verifyingSigner')).toBe(gasTank);
  expect(await read('owner')).toBe(gasTank);
  expect(await read('entryPoint')).toBe(ERC4337_V08.entryPoint);
  expect(await read('getDeposit')).toBe(parseEther('2.5'));
  expect(run.stderr).toMatch(new RegExp(`ServicePaymaster ${paymaster} on base-sepolia, EntryPoint deposit 2.5 ETH`));

  const edited = structuredClone(manifest);
  edited.chains['base-sepolia'] = { ...edited.chains['base-sepolia']!, ...lines } as (typeof edited.chains)['base-sepolia'];
  expect(parseManifest(edited, 'edited').chains['base-sepolia']).toMatchObject(lines);
}, 60_000);

test('error: an RPC URL of another chain than --chain is refused before anything is sent; a missing --chain is a usage error (exit 2)', async () => {
  const gasTankKey = generatePrivateKey();
  const wrong = await paymasterDeploy(['--chain', 'ethereum-sepolia', '--rpc-url', d.rpcUrl], gasTankKey);
  expect(wrong.code).toBe(1);
  expect(wrong.stderr).toMatch(/is chain id 84532, not ethereum-sepolia \(11155111\)/);
  expect(await client.getTransactionCount({ address: privateKeyToAccount(gasTankKey).address })).toBe(0);

  const usage = await paymasterDeploy(['--deposit', '1'], gasTankKey);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toMatch(/--chain is required\nusage: npm run paymaster:deploy/);
}, 60_000);
