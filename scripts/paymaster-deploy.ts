/**
 * `npm run paymaster:deploy -- --chain <name> [--rpc-url <url>] [--deposit <eth>]`:
 * deploys the service's paymaster (contracts/ServicePaymaster.sol) on a real
 * network for ERC-4337 v0.8's canonical EntryPoint, with the service's gas
 * tank (from the configured key provider: GAS_TANK_KEY, or the token's
 * `service:gas-tank` with KEY_PROVIDER=pkcs11) as its owner and verifying
 * signer, the gas tank paying for the deployment. With `--deposit` it then
 * puts that much ETH in the paymaster's EntryPoint deposit. It prints the
 * manifest lines of the chain (`accountModel`, `erc4337`) to put in
 * CHAIN_MANIFEST. The RPC URL: `--rpc-url`, else RPC_URL_<CHAIN>, else the
 * chain's `rpcUrl` in CHAIN_MANIFEST (or deploy/testnets.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, formatEther, http, parseEther, type Address, type Hex, type LocalAccount } from 'viem';
import { ConfigError, loadConfig } from '../src/config';
import { serviceKeyProvider } from './serviceKeyProvider';
import { KeyProviderStartError } from '../src/chain/keys/startError';
import { servicePaymasterAbi } from '../src/chain/sandbox/abis';
import artifacts from '../src/chain/sandbox/artifacts.json';
import { ERC4337_V08 } from '../src/chain/sandbox/erc4337/canonical';
import { viemChainFor } from '../src/chain/sandbox/viemChains';
import { CHAINS, isChainName, type ChainName } from '../src/domain/chains';

/** A wrong invocation: printed with the usage, exit code 2. */
class UsageError extends Error {}

const USAGE = 'usage: npm run paymaster:deploy -- --chain <name> [--rpc-url <url>] [--deposit <eth>]';

interface Options {
  chain: ChainName;
  rpcUrl?: string;
  depositWei?: bigint;
}

function parseArgs(argv: readonly string[]): Options {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    if (!['--chain', '--rpc-url', '--deposit'].includes(flag)) throw new UsageError(`unknown argument ${flag}`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    values[flag] = value;
  }
  const chain = values['--chain'];
  if (chain === undefined) throw new UsageError('--chain is required');
  if (!isChainName(chain)) throw new UsageError(`--chain ${chain} is not a chain name`);
  const deposit = values['--deposit'];
  if (deposit !== undefined && !/^\d+(\.\d{1,18})?$/.test(deposit)) throw new UsageError(`--deposit ${deposit} is not an amount of ETH like 0.5`);
  return { chain, rpcUrl: values['--rpc-url'], depositWei: deposit === undefined ? undefined : parseEther(deposit) };
}

/** `--rpc-url`, else RPC_URL_<CHAIN>, else the manifest's (CHAIN_MANIFEST or deploy/testnets.json). */
function rpcUrlOf(o: Options, env: NodeJS.ProcessEnv): string {
  if (o.rpcUrl) return o.rpcUrl;
  const fromEnv = env[`RPC_URL_${o.chain.toUpperCase().replace(/-/g, '_')}`];
  if (fromEnv) return fromEnv;
  const path = env.CHAIN_MANIFEST ?? join(__dirname, '..', 'deploy', 'testnets.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as { chains: Partial<Record<ChainName, { rpcUrl?: string }>> };
  const url = manifest.chains[o.chain]?.rpcUrl;
  if (!url) throw new UsageError(`no RPC URL for ${o.chain}: pass --rpc-url or set RPC_URL_${o.chain.toUpperCase().replace(/-/g, '_')}`);
  return url;
}

/** What a deployment did: the paymaster, its deposit now, and the chain's manifest lines. */
export interface PaymasterDeployment {
  paymaster: Address;
  depositWei: bigint;
  manifestLines: string;
}

/** Deploy ServicePaymaster on `chain` at `rpcUrl` from `gasTank` (its owner and signer), then deposit `depositWei` if given. */
export async function deployPaymaster(chain: ChainName, rpcUrl: string, gasTank: LocalAccount, depositWei?: bigint): Promise<PaymasterDeployment> {
  const viemChain = viemChainFor(chain, rpcUrl);
  const transport = http(rpcUrl);
  const client = createPublicClient({ chain: viemChain, transport });
  const wallet = createWalletClient({ account: gasTank, chain: viemChain, transport });
  const chainId = await client.getChainId();
  if (chainId !== CHAINS[chain].chainId) throw new Error(`${rpcUrl} is chain id ${chainId}, not ${chain} (${CHAINS[chain].chainId})`);
  for (const [name, address] of Object.entries(ERC4337_V08)) {
    const code = await client.getCode({ address });
    if (!code || code === '0x')
      throw new Error(`${chain} has no ERC-4337 v0.8 ${name} at its canonical address ${address}: the paymaster would have nothing to pay through`);
  }

  const hash = await wallet.deployContract({
    abi: servicePaymasterAbi,
    bytecode: artifacts.ServicePaymaster.bytecode as Hex,
    args: [ERC4337_V08.entryPoint, gasTank.address, gasTank.address],
  });
  console.error(`deploying ServicePaymaster from the gas tank ${gasTank.address}: ${hash}`);
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`the deployment ${hash} failed`);
  const paymaster = receipt.contractAddress;

  if (depositWei !== undefined && depositWei > 0n) {
    const deposit = await wallet.writeContract({ address: paymaster, abi: servicePaymasterAbi, functionName: 'deposit', value: depositWei });
    console.error(`depositing ${formatEther(depositWei)} ETH: ${deposit}`);
    if ((await client.waitForTransactionReceipt({ hash: deposit })).status !== 'success') throw new Error(`the deposit ${deposit} failed`);
  }
  const balance = await client.readContract({ address: paymaster, abi: servicePaymasterAbi, functionName: 'getDeposit' });
  const lines = JSON.stringify({ accountModel: '7702', erc4337: { ...ERC4337_V08, paymaster } }, null, 2)
    .split('\n')
    .slice(1, -1)
    .join('\n');
  return { paymaster, depositWei: balance, manifestLines: lines };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const rpcUrl = rpcUrlOf(options, process.env);
  const config = loadConfig();
  const provider = serviceKeyProvider(config);
  try {
    const gasTank = await provider.serviceSigner('gas-tank');
    const done = await deployPaymaster(options.chain, rpcUrl, gasTank, options.depositWei);
    console.error(`ServicePaymaster ${done.paymaster} on ${options.chain}, EntryPoint deposit ${formatEther(done.depositWei)} ETH`);
    console.error(`put these lines in the manifest's "${options.chain}" entry:`);
    console.log(done.manifestLines);
  } finally {
    await provider.close();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    const usage = e instanceof UsageError;
    const known = usage || e instanceof ConfigError || e instanceof KeyProviderStartError;
    console.error(usage ? `${e.message}\n${USAGE}` : known ? (e as Error).message : `paymaster:deploy: ${(e as Error).message}`);
    process.exit(known ? 2 : 1);
  });
}
