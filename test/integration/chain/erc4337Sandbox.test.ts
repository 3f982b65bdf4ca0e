import {
  BaseError,
  concat,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  http,
  numberToHex,
  pad,
  parseEventLogs,
  toHex,
  type Address,
  type Hex,
  type LocalAccount,
  type SignedAuthorization,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { servicePaymasterAbi } from '../../../src/chain/sandbox/abis';
import { SANDBOX_KEYS } from '../../../src/chain/sandbox/accounts';
import { ERC4337_V08, erc4337Artifact } from '../../../src/chain/sandbox/erc4337/canonical';
import { viemChainFor } from '../../../src/chain/sandbox/viemChains';
import type { ChainName } from '../../../src/domain/chains';
import { loadSandboxManifest, sandboxChain } from '../../setup/sandbox';

/**
 * ERC-4337 v0.8 on the sandbox devnets, driven by hand (no service code):
 * the devnets run Prague (a type-4 transaction delegates an EOA), and a user
 * operation of a freshly delegated EOA, sponsored by the service's paymaster
 * (the gas tank's signature), passes handleOps sent by another account while
 * the EOA never holds ETH; a paymaster signature of another key is refused.
 */
const CHAIN: ChainName = 'base-sepolia';
const manifest = loadSandboxManifest();
const d = sandboxChain(manifest, CHAIN);
const chain = viemChainFor(CHAIN, d.rpcUrl);
const client = createPublicClient({ chain, transport: http(d.rpcUrl), pollingInterval: 50 });
const entryPointAbi = erc4337Artifact('EntryPoint').abi;
const delegateAbi = erc4337Artifact('Simple7702Account').abi;
const gasTank = privateKeyToAccount(SANDBOX_KEYS.gasTank);

/** ERC-4337 v0.8's PackedUserOperation as the EntryPoint's ABI takes it. */
interface PackedUserOperation {
  sender: Address;
  nonce: bigint;
  initCode: Hex;
  callData: Hex;
  accountGasLimits: Hex;
  preVerificationGas: bigint;
  gasFees: Hex;
  paymasterAndData: Hex;
  signature: Hex;
}

/** Two uint128 in one word, high first (accountGasLimits, gasFees, the paymaster's gas limits). */
const packUints = (high: bigint, low: bigint): Hex => concat([pad(numberToHex(high), { size: 16 }), pad(numberToHex(low), { size: 16 })]);

/** A fresh account with native ETH of its own (hardhat_setBalance), so no shared sandbox key's nonce is touched. */
async function fundedAccount(): Promise<LocalAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await client.request({ method: 'hardhat_setBalance' as never, params: [account.address, toHex(10n ** 20n)] as never });
  return account;
}

/**
 * An operation of `wallet` calling USDC.approve(spender, amount) in one executeBatch, its paymasterData
 * signed by `paymasterSigner` over the paymaster's getHash, then signed by the wallet (raw userOpHash).
 */
async function sponsoredOperation(wallet: LocalAccount, paymasterSigner: LocalAccount, spender: Address, amount: bigint): Promise<PackedUserOperation> {
  const paymaster = d.erc4337!.paymaster;
  const nonce = (await client.readContract({
    address: ERC4337_V08.entryPoint,
    abi: entryPointAbi,
    functionName: 'getNonce',
    args: [wallet.address, 0n],
  })) as bigint;
  const callData = encodeFunctionData({
    abi: delegateAbi,
    functionName: 'executeBatch',
    args: [[{ target: d.tokens.USDC!, value: 0n, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }) }]],
  });
  const gasPrice = await client.getGasPrice();
  const paymasterGas = packUints(150_000n, 0n);
  // the window on the chain's clock, as the service sets it: other suites move the shared devnets' time forward (earnings.test.ts: 30 days)
  const validUntil = Number((await client.getBlock({ blockTag: 'latest' })).timestamp) + 3600;
  const validAfter = 0;
  const op: PackedUserOperation = {
    sender: wallet.address,
    nonce,
    initCode: '0x',
    callData,
    accountGasLimits: packUints(150_000n, 200_000n),
    preVerificationGas: 60_000n,
    gasFees: packUints(gasPrice, gasPrice * 2n),
    paymasterAndData: concat([paymaster, paymasterGas]),
    signature: '0x',
  };
  const hash = await client.readContract({ address: paymaster, abi: servicePaymasterAbi, functionName: 'getHash', args: [op, validUntil, validAfter] });
  const serviceSignature = await paymasterSigner.signMessage({ message: { raw: hash } });
  op.paymasterAndData = concat([
    paymaster,
    paymasterGas,
    encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]),
    serviceSignature,
  ]);
  const userOpHash = (await client.readContract({ address: ERC4337_V08.entryPoint, abi: entryPointAbi, functionName: 'getUserOpHash', args: [op] })) as Hex;
  op.signature = await wallet.sign!({ hash: userOpHash });
  return op;
}

/** `wallet`'s EIP-7702 authorization of Simple7702Account at its current nonce (it sends nothing itself). */
async function delegation(wallet: LocalAccount): Promise<SignedAuthorization> {
  const nonce = await client.getTransactionCount({ address: wallet.address });
  return wallet.signAuthorization!({ contractAddress: ERC4337_V08.delegate, chainId: d.chainId, nonce });
}

const designator = (delegate: Address): Hex => concat(['0xef0100', delegate]).toLowerCase() as Hex;

test("behavior: Prague: a type-4 transaction sent by another account delegates an EOA to Simple7702Account (code 0xef0100 ++ delegate), the EOA's nonce counts the authorization", async () => {
  const sender = await fundedAccount();
  const eoa = privateKeyToAccount(generatePrivateKey());
  const wallet = createWalletClient({ account: sender, chain, transport: http(d.rpcUrl) });
  const hash = await wallet.sendTransaction({ to: eoa.address, data: '0x', authorizationList: [await delegation(eoa)], gas: 100_000n });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  expect({ status: receipt.status, type: receipt.type }).toEqual({ status: 'success', type: 'eip7702' });
  expect((await client.getCode({ address: eoa.address }))?.toLowerCase()).toBe(designator(ERC4337_V08.delegate));
  expect(await client.getTransactionCount({ address: eoa.address })).toBe(1);
});

test("behavior: a fresh EOA's first operation, its delegation riding in the bundle, sponsored by the paymaster with the gas tank's signature, passes handleOps sent by another account; the EOA's ETH stays 0 and the paymaster's deposit pays", async () => {
  const bundler = await fundedAccount();
  const eoa = privateKeyToAccount(generatePrivateKey());
  const spender = privateKeyToAccount(generatePrivateKey()).address;
  const authorization = await delegation(eoa);
  const op = await sponsoredOperation(eoa, gasTank, spender, 1_234_567n);

  const wallet = createWalletClient({ account: bundler, chain, transport: http(d.rpcUrl) });
  const hash = await wallet.writeContract({
    address: ERC4337_V08.entryPoint,
    abi: entryPointAbi,
    functionName: 'handleOps',
    args: [[op], bundler.address],
    authorizationList: [authorization],
    gas: 1_000_000n,
  });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  expect(receipt.status).toBe('success');
  // the deposit just before and just after this block (a block a transaction): the service's own operations in other suites share the paymaster
  const depositAt = (blockNumber: bigint) =>
    client.readContract({ address: d.erc4337!.paymaster, abi: servicePaymasterAbi, functionName: 'getDeposit', blockNumber });
  const depositBefore = await depositAt(receipt.blockNumber - 1n);
  const [event] = parseEventLogs({ abi: entryPointAbi, logs: receipt.logs, eventName: 'UserOperationEvent' }) as unknown as {
    args: { sender: Address; paymaster: Address; success: boolean; actualGasCost: bigint };
  }[];
  expect(event?.args).toMatchObject({ sender: eoa.address, paymaster: d.erc4337!.paymaster, success: true });

  expect(await client.readContract({ address: d.tokens.USDC!, abi: erc20Abi, functionName: 'allowance', args: [eoa.address, spender] })).toBe(1_234_567n);
  expect(await client.getBalance({ address: eoa.address })).toBe(0n);
  expect((await client.getCode({ address: eoa.address }))?.toLowerCase()).toBe(designator(ERC4337_V08.delegate));
  const depositAfter = await depositAt(receipt.blockNumber);
  expect(depositBefore - depositAfter).toBe(event!.args.actualGasCost);
  expect(event!.args.actualGasCost).toBeGreaterThan(0n);
});

test('error: an operation whose paymaster signature is not the gas tank\'s is refused: handleOps reverts FailedOp(0, "AA34 signature error")', async () => {
  const sender = await fundedAccount();
  const eoa = privateKeyToAccount(generatePrivateKey());
  const wallet = createWalletClient({ account: sender, chain, transport: http(d.rpcUrl) });
  // delegated first, so the account's own validation passes and the paymaster's is what is judged
  const delegated = await wallet.sendTransaction({ to: eoa.address, data: '0x', authorizationList: [await delegation(eoa)], gas: 100_000n });
  expect((await client.waitForTransactionReceipt({ hash: delegated, pollingInterval: 20 })).status).toBe('success');

  const op = await sponsoredOperation(eoa, privateKeyToAccount(generatePrivateKey()), sender.address, 1n);
  const refusal = await client
    .simulateContract({ account: sender, address: ERC4337_V08.entryPoint, abi: entryPointAbi, functionName: 'handleOps', args: [[op], sender.address] })
    .then(
      () => null,
      (err: unknown) => err,
    );
  expect(refusal).toBeInstanceOf(BaseError);
  const reverted = (refusal as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
  expect({ error: reverted?.data?.errorName, args: reverted?.data?.args }).toEqual({ error: 'FailedOp', args: [0n, 'AA34 signature error'] });
});
