import { createPublicClient, createWalletClient, http, parseTransaction, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { sandboxTokenAbi } from '../../../src/chain/sandbox/abis';
import { entryPoint08Abi } from '../../../src/chain/viem/operations/abis';
import { startSandbox, type Sandbox } from '../../../src/chain/sandbox/sandbox';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { createViemChainPort, type ViemChainPort } from '../../../src/chain/viem/createViemChainPort';
import type { ChainName } from '../../../src/domain/chains';
import { NonceConsumedError, type SignedOperation, type SignedTx, type TxRequest } from '../../../src/ports/chain';

/**
 * A bundle that does not land is replaced and rebroadcast as any
 * transaction, on a devnet of this suite's own that mines only when told
 * (its automine off): the replacement keeps the type-4 authorization list,
 * one of the two lands and the operation runs once; sending any of its bytes
 * again never reports the operation consumed once it landed. A bundle whose
 * gas-tank nonce went elsewhere while its operation did not land is.
 */
const CHAIN: ChainName = 'base-sepolia';
let sandbox: Sandbox;
let port: ViemChainPort;
let rpc: (method: string, params?: unknown[]) => Promise<unknown>;

beforeAll(async () => {
  sandbox = await startSandbox({ chains: [CHAIN] });
  port = createViemChainPort({ manifest: sandbox.manifest, keys: { gasTank: sandbox.keys.gasTank, faucet: sandbox.keys.faucet }, pollingIntervalMs: 20 });
  const c = port.client(CHAIN).client;
  rpc = (method, params = []) => c.request({ method: method as never, params: params as never });
}, 120_000);
afterAll(async () => {
  await port?.close();
  await sandbox?.stop();
});

const d = () => sandbox.manifest.chains[CHAIN]!;
const client = () => createPublicClient({ chain: viemChainFor(CHAIN, d().rpcUrl), transport: http(d().rpcUrl, { retryCount: 0 }), pollingInterval: 20 });

async function mintUsdc(to: Address, amount: bigint): Promise<void> {
  const faucet = createWalletClient({ account: privateKeyToAccount(sandbox.keys.faucet), chain: viemChainFor(CHAIN, d().rpcUrl), transport: http(d().rpcUrl) });
  const hash = await faucet.writeContract({ address: d().tokens.USDC!, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] });
  await client().waitForTransactionReceipt({ hash });
}

const lend = (amount: bigint): TxRequest[] => [
  { kind: 'approve', chain: CHAIN, asset: 'USDC', spender: 'aave-v3', amount },
  { kind: 'supply', chain: CHAIN, protocol: 'aave-v3', asset: 'USDC', amount },
];
const opNonce = (sender: Address): Promise<bigint> =>
  client().readContract({ address: d().erc4337!.entryPoint, abi: entryPoint08Abi, functionName: 'getNonce', args: [sender, 0n] });

test('behavior: a stuck first bundle (type 4) is replaced with its authorization list kept; one of the two lands, the operation runs once, and rebroadcasting either bytes afterwards is no error', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 2_000_000n);
  await rpc('evm_setAutomine', [false]);
  let sent: SignedOperation;
  let replacement: SignedTx;
  try {
    sent = await port.sendOperation(wallet, CHAIN, lend(2_000_000n), async () => undefined);
    replacement = await port.replace('relayer', sent, async () => undefined);
    const before = parseTransaction(sent.raw);
    const after = parseTransaction(replacement.raw);
    expect(after.type).toBe('eip7702');
    expect(after.authorizationList).toEqual(before.authorizationList);
    expect({ nonce: after.nonce, data: after.data, to: after.to }).toEqual({ nonce: before.nonce, data: before.data, to: before.to });
    expect(after.maxFeePerGas! > before.maxFeePerGas!).toBe(true);
    await rpc('evm_mine');
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
  const receipt = await port.findReceipt(CHAIN, [sent.txHash, replacement.txHash], 10_000);
  expect(receipt).toMatchObject({ txHash: replacement.txHash, status: 'success', operation: { userOpHash: sent.userOpHash, success: true } });
  expect(await port.findReceipt(CHAIN, [sent.txHash], 0)).toBeNull();
  expect(await opNonce(wallet.address)).toBe(1n);
  const [h] = await port.holdings(wallet.address, [CHAIN]);
  expect(h!.positions.find((p) => p.protocol === 'aave-v3')?.amount).toBeGreaterThanOrEqual(1_999_999n);
  expect(h!.positions.find((p) => p.protocol === 'aave-v3')?.amount).toBeLessThanOrEqual(2_000_001n);

  // the replaced bytes can never land, but their operation did: not "consumed" (it must not be signed again)
  await expect(port.rebroadcast(CHAIN, sent.raw)).resolves.toBeUndefined();
  await expect(port.rebroadcast(CHAIN, replacement.raw)).resolves.toBeUndefined();
  expect(await opNonce(wallet.address)).toBe(1n);
});

test('error: a bundle persisted but never broadcast, whose gas-tank nonce another transaction took, is NonceConsumedError on rebroadcast (its operation did not land)', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 1_000_000n);
  let persisted: SignedOperation | undefined;
  const refused = port.sendOperation(wallet, CHAIN, lend(1_000_000n), async (s) => {
    persisted = s;
    throw new Error('store down after persisting');
  });
  await expect(refused).rejects.toThrow('store down after persisting');
  // the gas tank's next transaction takes the nonce the bundle was signed with
  const tank = createWalletClient({ account: privateKeyToAccount(sandbox.keys.gasTank), chain: viemChainFor(CHAIN, d().rpcUrl), transport: http(d().rpcUrl) });
  await client().waitForTransactionReceipt({ hash: await tank.sendTransaction({ to: tank.account.address, value: 0n }) });
  expect(await client().getTransactionCount({ address: tank.account.address })).toBeGreaterThan(persisted!.nonce);

  await expect(port.rebroadcast(CHAIN, persisted!.raw)).rejects.toBeInstanceOf(NonceConsumedError);
  expect(await opNonce(wallet.address)).toBe(0n);
  expect(((await client().getCode({ address: wallet.address })) ?? '0x') as Hex).toBe('0x');
});
