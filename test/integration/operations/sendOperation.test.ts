import { concat, createPublicClient, createWalletClient, http, parseTransaction, toHex, type Address, type Hex, type LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { sandboxTokenAbi, servicePaymasterAbi } from '../../../src/chain/sandbox/abis';
import { SANDBOX_ADDRESSES, SANDBOX_KEYS } from '../../../src/chain/sandbox/accounts';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import { createViemChainPort, type ViemChainPort } from '../../../src/chain/viem/createViemChainPort';
import { paymasterHash } from '../../../src/chain/viem/operations/paymasterData';
import type { ChainName } from '../../../src/domain/chains';
import { WouldRevertError, type SignedOperation, type TxRequest } from '../../../src/ports/chain';
import { loadSandboxManifest, sandboxChain } from '../../setup/sandbox';
import { toPackedUserOperation } from 'viem/account-abstraction';

/**
 * ChainPort.sendOperation on the devnets, against the canonical EntryPoint
 * v0.8, Simple7702Account and the service's paymaster: a wallet's calls on a
 * chain go into one user operation, its delegation riding in the first
 * bundle, the gas tank bundling and the paymaster paying; the wallet never
 * holds native ETH and keeps its address.
 */
const manifest = loadSandboxManifest();
const CHAIN: ChainName = 'base-sepolia';
const d = sandboxChain(manifest, CHAIN);
const viemChain = viemChainFor(CHAIN, d.rpcUrl);
const client = createPublicClient({ chain: viemChain, transport: http(d.rpcUrl, { retryCount: 0 }), pollingInterval: 20 });
let port: ViemChainPort;

beforeAll(() => {
  port = createViemChainPort({ manifest, keys: { gasTank: SANDBOX_KEYS.gasTank, faucet: SANDBOX_KEYS.faucet }, pollingIntervalMs: 20 });
});
afterAll(() => port?.close());

async function mintUsdc(to: Address, amount: bigint, chain: ChainName = CHAIN): Promise<void> {
  const dc = sandboxChain(manifest, chain);
  const transport = http(dc.rpcUrl, { retryCount: 0 });
  const faucet = createWalletClient({ account: SANDBOX_ADDRESSES.faucet, chain: viemChainFor(chain, dc.rpcUrl), transport });
  const hash = await faucet.writeContract({ address: dc.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'mint', args: [to, amount] });
  await createPublicClient({ chain: viemChainFor(chain, dc.rpcUrl), transport, pollingInterval: 20 }).waitForTransactionReceipt({ hash });
}

const designator = (delegate: Address): string => concat(['0xef0100', delegate]).toLowerCase();
const codeOf = async (address: Address): Promise<string> => ((await client.getCode({ address })) ?? '0x').toLowerCase();
const usdcOf = (address: Address): Promise<bigint> =>
  client.readContract({ address: d.tokens.USDC!, abi: sandboxTokenAbi, functionName: 'balanceOf', args: [address] });

const lend = (amount: bigint): TxRequest[] => [
  { kind: 'approve', chain: CHAIN, asset: 'USDC', spender: 'aave-v3', amount },
  { kind: 'supply', chain: CHAIN, protocol: 'aave-v3', asset: 'USDC', amount },
];

/** Sends one operation and waits for its receipt; the signed bundles handed over are collected. */
async function operate(wallet: LocalAccount, calls: TxRequest[], signed: SignedOperation[] = []) {
  const op = await port.sendOperation(wallet, CHAIN, calls, async (s) => void signed.push(s));
  const receipt = await port.receipt(CHAIN, op.txHash, 30_000);
  return { op, receipt: receipt!, signed };
}

const aavePosition = async (address: Address): Promise<bigint> => {
  const [h] = await port.holdings(address, [CHAIN]);
  return h!.positions.find((p) => p.protocol === 'aave-v3' && p.asset === 'USDC')?.amount ?? 0n;
};

test('behavior: approve + supply on Aave as one operation: one bundle in one block, the wallet delegated with the authorization riding in it, its ETH 0 before and after, its address unchanged, the position read back', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 5_000_000n);
  expect(await client.getBalance({ address: wallet.address })).toBe(0n);

  const { op, receipt, signed } = await operate(wallet, lend(5_000_000n));

  expect(signed.map((s) => s.txHash)).toEqual([op.txHash]);
  expect(op).toMatchObject({ chain: CHAIN, from: SANDBOX_ADDRESSES.gasTank, delegated: true, opNonce: 0n });
  expect(parseTransaction(op.raw).type).toBe('eip7702');
  expect(receipt).toMatchObject({ status: 'success', operation: { userOpHash: op.userOpHash, success: true } });
  expect(receipt.operation!.actualGasCost).toBeGreaterThan(0n);
  expect(await client.getBalance({ address: wallet.address })).toBe(0n);
  expect(await codeOf(wallet.address)).toBe(designator(d.erc4337!.delegate));
  expect(await usdcOf(wallet.address)).toBe(0n);
  expect(await aavePosition(wallet.address)).toBeGreaterThanOrEqual(4_999_999n);
  console.log(`approve+supply (aave-v3, ${CHAIN}) first operation: bundle gas ${receipt.gasUsed}, operation counted ${receipt.operation!.actualGasUsed}`);
});

test('behavior: a second operation of a delegated wallet carries no authorization (EIP-1559 bundle) and uses the next EntryPoint nonce', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 4_000_000n);
  await operate(wallet, lend(2_000_000n));
  const { op, receipt } = await operate(wallet, lend(2_000_000n));
  expect(op).toMatchObject({ delegated: false, opNonce: 1n });
  expect(parseTransaction(op.raw).type).toBe('eip1559');
  expect(receipt.status).toBe('success');
  expect(await aavePosition(wallet.address)).toBeGreaterThanOrEqual(3_999_998n);
  expect(await client.getBalance({ address: wallet.address })).toBe(0n);
  console.log(`approve+supply (aave-v3, ${CHAIN}) delegated: bundle gas ${receipt.gasUsed}, operation counted ${receipt.operation!.actualGasUsed}`);
});

test('behavior: a delegation changed outside the service (another delegate) is detected before signing and delegated again in the bundle', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 1_000_000n);
  // someone else delegates the wallet to another contract (the paymaster's address: any code will do)
  const other = privateKeyToAccount(generatePrivateKey());
  await client.request({ method: 'hardhat_setBalance' as never, params: [other.address, toHex(10n ** 19n)] as never });
  const authorization = await wallet.signAuthorization!({ contractAddress: d.erc4337!.paymaster, chainId: d.chainId, nonce: 0 });
  const sender = createWalletClient({ account: other, chain: viemChain, transport: http(d.rpcUrl) });
  const hash = await sender.sendTransaction({ to: other.address, data: '0x', authorizationList: [authorization], gas: 100_000n });
  await client.waitForTransactionReceipt({ hash });
  expect(await codeOf(wallet.address)).toBe(designator(d.erc4337!.paymaster));

  const { op, receipt } = await operate(wallet, lend(1_000_000n));
  expect(op.delegated).toBe(true);
  expect(receipt.status).toBe('success');
  expect(await codeOf(wallet.address)).toBe(designator(d.erc4337!.delegate));
});

test('error: a supply beyond the balance inside the batch is refused before anything is signed: WouldRevertError naming the supply (index 1); the gas tank nonce and the wallet unchanged', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 1_000_000n);
  const tankNonce = await client.getTransactionCount({ address: SANDBOX_ADDRESSES.gasTank, blockTag: 'pending' });
  const signed: SignedOperation[] = [];
  const calls: TxRequest[] = [lend(1_000_000n)[0]!, { ...lend(1_000_000n)[1]!, amount: 3_000_000n } as TxRequest];
  const sent = port.sendOperation(wallet, CHAIN, calls, async (s) => void signed.push(s));
  await expect(sent).rejects.toBeInstanceOf(WouldRevertError);
  await expect(sent).rejects.toMatchObject({ chain: CHAIN, kind: 'supply', callIndex: 1, reason: expect.any(String) });
  expect(signed).toEqual([]);
  expect(await client.getTransactionCount({ address: SANDBOX_ADDRESSES.gasTank, blockTag: 'pending' })).toBe(tankNonce);
  expect(await codeOf(wallet.address)).toBe('0x');
});

test('error: a reverting supply forced on chain (sendOperationEvenIfReverting): the bundle is mined, the operation failed at call 1 with its reason, status reverted, the funds stay in the wallet', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  await mintUsdc(wallet.address, 1_000_000n);
  const calls: TxRequest[] = [lend(1_000_000n)[0]!, { ...lend(1_000_000n)[1]!, amount: 3_000_000n } as TxRequest];
  const op = await port.sendOperationEvenIfReverting(400_000n, wallet, CHAIN, calls, async () => undefined);
  const receipt = await port.receipt(CHAIN, op.txHash, 30_000);
  expect(receipt).toMatchObject({ status: 'reverted', operation: { userOpHash: op.userOpHash, success: false, failedCall: 1, reason: expect.any(String) } });
  expect(await usdcOf(wallet.address)).toBe(1_000_000n);
  expect(await aavePosition(wallet.address)).toBe(0n);
  expect(await client.getBalance({ address: wallet.address })).toBe(0n);
});

test("behavior: the service's paymaster hash computed by the port equals ServicePaymaster.getHash on chain", async () => {
  const op = toPackedUserOperation({
    sender: privateKeyToAccount(generatePrivateKey()).address,
    nonce: 7n,
    factory: '0x7702000000000000000000000000000000000000',
    factoryData: '0x',
    callData: '0x1234',
    callGasLimit: 200_000n,
    verificationGasLimit: 100_000n,
    preVerificationGas: 50_000n,
    maxFeePerGas: 3_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
    paymaster: d.erc4337!.paymaster,
    paymasterVerificationGasLimit: 60_000n,
    paymasterPostOpGasLimit: 0n,
    paymasterData: '0x',
    signature: '0x',
  });
  const onChain = await client.readContract({ address: d.erc4337!.paymaster, abi: servicePaymasterAbi, functionName: 'getHash', args: [op, 0, 0] });
  expect(paymasterHash(op, d.chainId, d.erc4337!.paymaster)).toBe(onChain as Hex);
});

test('behavior: gas of approve + supply as one operation against the two plain transactions, Aave (base-sepolia) and Compound (ethereum-sepolia), printed for OPERATION_OVERHEAD_GAS', async () => {
  const markets = [
    { chain: 'base-sepolia', protocol: 'aave-v3' },
    { chain: 'ethereum-sepolia', protocol: 'compound-v3' },
  ] as const;
  for (const { chain, protocol } of markets) {
    const calls: TxRequest[] = [
      { kind: 'approve', chain, asset: 'USDC', spender: protocol, amount: 1_000_000n },
      { kind: 'supply', chain, protocol, asset: 'USDC', amount: 1_000_000n },
    ];
    const gasOf = async (hash: Hex) => (await port.receipt(chain, hash, 30_000))!;
    const first = privateKeyToAccount(generatePrivateKey());
    const again = privateKeyToAccount(generatePrivateKey());
    const plain = privateKeyToAccount(generatePrivateKey());
    for (const w of [first, again, plain]) await mintUsdc(w.address, 2_000_000n, chain);
    const firstOp = await gasOf((await port.sendOperation(first, chain, calls, async () => undefined)).txHash);
    // delegated by an operation of a lone approve, so its supply below is its first as the plain wallet's is
    // (of another spender: the allowance measured below goes from 0, as the plain wallet's does)
    const delegating: TxRequest = { kind: 'approve', chain, asset: 'USDC', spender: 'bridge', amount: 1n };
    await port.sendOperation(again, chain, [delegating], async () => undefined).then((s) => gasOf(s.txHash));
    const againOp = await gasOf((await port.sendOperation(again, chain, calls, async () => undefined)).txHash);
    let plainGas = 0n;
    for (const tx of calls) plainGas += (await gasOf((await port.send(plain, tx, async () => undefined)).txHash)).gasUsed;
    expect([firstOp.status, againOp.status]).toEqual(['success', 'success']);
    console.log(
      `${protocol} on ${chain}: approve+supply plain ${plainGas} (two transactions, no top-up); operation first use ${firstOp.gasUsed} (+${firstOp.gasUsed - plainGas}), delegated ${againOp.gasUsed} (+${againOp.gasUsed - plainGas}); EntryPoint counted ${firstOp.operation!.actualGasUsed} / ${againOp.operation!.actualGasUsed}`,
    );
  }
});

test('behavior: approve + depositForBurn as one operation on each of two sources, then receiveMessage ×2 + approve + supply as one operation on the destination: mintedEach tells each mint, the position holds both, the wallet never holds ETH', async () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const sources = ['ethereum-sepolia', 'arbitrum-sepolia'] as const;
  const amounts = [3_000_000n, 2_000_000n];
  const attested = [];
  for (const [i, source] of sources.entries()) {
    await mintUsdc(wallet.address, amounts[i]!, source);
    const burnCalls: TxRequest[] = [
      { kind: 'approve', chain: source, asset: 'USDC', spender: 'bridge', amount: amounts[i]! },
      { kind: 'burn', chain: source, toChain: CHAIN, amount: amounts[i]!, maxFee: 0n, minFinalityThreshold: 2000 },
    ];
    const burn = await port.sendOperation(wallet, source, burnCalls, async () => undefined);
    const burnReceipt = await port.receipt(source, burn.txHash, 30_000);
    expect(burnReceipt).toMatchObject({ status: 'success', operation: { success: true } });
    attested.push(await port.attest(source, burn.txHash));
  }
  const total = amounts[0]! + amounts[1]!;
  const { receipt } = await operate(wallet, [
    ...attested.map((a): TxRequest => ({ kind: 'mint', chain: CHAIN, message: a.message, attestation: a.attestation })),
    ...lend(total),
  ]);
  expect(receipt).toMatchObject({ status: 'success', minted: amounts[0], mintedEach: amounts, operation: { success: true } });
  expect(await aavePosition(wallet.address)).toBeGreaterThanOrEqual(total - 1n);
  for (const chain of [...sources, CHAIN]) {
    const dc = sandboxChain(manifest, chain);
    const c = createPublicClient({ chain: viemChainFor(chain, dc.rpcUrl), transport: http(dc.rpcUrl, { retryCount: 0 }) });
    expect([chain, await c.getBalance({ address: wallet.address })]).toEqual([chain, 0n]);
    expect([chain, ((await c.getCode({ address: wallet.address })) ?? '0x').toLowerCase()]).toEqual([chain, designator(dc.erc4337!.delegate)]);
  }
});
